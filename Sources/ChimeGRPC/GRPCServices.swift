import ChimeCore

/// The services the gRPC transport answers itself, from the descriptor set of `Protos/` and the
/// daemon's state: `grpc.health.v1.Health` and `grpc.reflection.v1(alpha).ServerReflection`.
/// Their messages are read and written field by field (`ProtoReader`, `ProtoWriter`).
struct GRPCServices {
  /// The service names health answers for: the server as a whole (""), and Chime's service.
  static let servedNames: Set<String> = ["", "chime.v1.NotificationCenter"]

  private enum ServingStatus: Int64 {
    case serving = 1, notServing = 2, serviceUnknown = 3
  }

  /// `Check(HealthCheckRequest { service = 1 })`: SERVING, NOT_SERVING while draining, and
  /// NOT_FOUND `SERVICE_UNKNOWN` for a service chimed does not serve.
  func healthCheck(_ request: [UInt8], draining: Bool) -> Result<[UInt8], ChimeError> {
    let service = Self.serviceName(request)
    guard Self.servedNames.contains(service) else {
      return .failure(ChimeError(.serviceUnknown, "chimed serves no service \"\(service.prefix(200))\""))
    }
    return .success(health(draining: draining))
  }

  /// `Watch`'s first message: the status now (SERVICE_UNKNOWN for a service chimed does not
  /// serve); the connection sends NOT_SERVING when the daemon starts draining.
  func healthWatch(_ request: [UInt8], draining: Bool) -> [UInt8] {
    guard Self.servedNames.contains(Self.serviceName(request)) else { return Self.healthResponse(.serviceUnknown) }
    return health(draining: draining)
  }

  /// A HealthCheckResponse { status = 1 }: SERVING, or NOT_SERVING while draining.
  func health(draining: Bool) -> [UInt8] {
    Self.healthResponse(draining ? .notServing : .serving)
  }

  private static func healthResponse(_ status: ServingStatus) -> [UInt8] {
    var response = ProtoWriter()
    response.int(1, status.rawValue)
    return response.bytes
  }

  private static func serviceName(_ request: [UInt8]) -> String {
    var reader = ProtoReader(request)
    var service = ""
    while let (field, value) = reader.next() {
      if field == 1 { service = value.string ?? "" }
    }
    return service
  }

  /// Answers one `ServerReflectionRequest` with its `ServerReflectionResponse` (the same
  /// field numbers in v1 and v1alpha).
  func reflect(_ request: [UInt8]) -> [UInt8] {
    ServerReflection.answer(request, index: DescriptorIndex.chime)
  }
}

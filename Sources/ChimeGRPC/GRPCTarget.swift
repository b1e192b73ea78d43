import ChimeWire

/// What a gRPC request's `:path` names: a NotificationCenter method (served by the router), or
/// one of the services the transport answers itself.
enum GRPCTarget: Equatable {
  enum ReflectionVersion: Equatable { case v1, v1alpha }

  case method(Method)
  /// `grpc.reflection.v1.ServerReflection` and `v1alpha` (older grpcurl and Evans), the same
  /// messages under two names.
  case reflection(ReflectionVersion)
  case healthCheck
  case healthWatch

  init?(path: String) {
    switch path {
    case "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo": self = .reflection(.v1)
    case "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": self = .reflection(.v1alpha)
    case "/grpc.health.v1.Health/Check": self = .healthCheck
    case "/grpc.health.v1.Health/Watch": self = .healthWatch
    default:
      guard let method = Method(rawValue: path) else { return nil }
      self = .method(method)
    }
  }
}

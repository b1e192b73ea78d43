/// gRPC server reflection (`grpc.reflection.v1` and `v1alpha`, the same messages): lists the
/// services and hands out the file descriptors that define a file or a symbol, so grpcurl and
/// Evans can list, describe and call without the `.proto` files.
enum ServerReflection {
  /// Answers a `ServerReflectionRequest { host = 1; oneof: file_by_filename = 3,
  /// file_containing_symbol = 4, file_containing_extension = 5,
  /// all_extension_numbers_of_type = 6, list_services = 7 }` with a
  /// `ServerReflectionResponse { valid_host = 1; original_request = 2; oneof:
  /// file_descriptor_response = 4, all_extension_numbers_response = 5,
  /// list_services_response = 6, error_response = 7 }`.
  static func answer(_ request: [UInt8], index: DescriptorIndex) -> [UInt8] {
    var response = ProtoWriter()
    var host = ""
    var body: (field: UInt64, bytes: [UInt8])?
    var reader = ProtoReader(request)
    while let (field, value) = reader.next() {
      switch field {
      case 1: host = value.string ?? ""
      case 3: body = files(named: value.string ?? "", index: index)
      case 4: body = files(defining: value.string ?? "", index: index)
      case 5: body = error(notFound: "chime's services define no extensions")
      case 6: body = extensionNumbers(of: value.string ?? "", index: index)
      case 7: body = (6, serviceList(index))
      default: break
      }
    }
    if reader.failed { body = error(invalid: "the reflection request is not a valid message") }
    response.string(1, host)
    response.bytes(2, request, always: true)
    let (field, bytes) = body ?? error(invalid: "the reflection request asks nothing")
    response.bytes(field, bytes, always: true)
    return response.bytes
  }

  /// ListServiceResponse { repeated ServiceResponse service = 1 { name = 1 } }.
  private static func serviceList(_ index: DescriptorIndex) -> [UInt8] {
    var list = ProtoWriter()
    for service in index.services {
      var entry = ProtoWriter()
      entry.string(1, service)
      list.bytes(1, entry.bytes, always: true)
    }
    return list.bytes
  }

  /// FileDescriptorResponse { repeated bytes file_descriptor_proto = 1 }: the file and what it
  /// imports.
  private static func files(named name: String, index: DescriptorIndex) -> (UInt64, [UInt8]) {
    let files = index.closure(of: name)
    guard !files.isEmpty else { return error(notFound: "no file \(name.prefix(200))") }
    var out = ProtoWriter()
    for file in files { out.bytes(1, file.bytes, always: true) }
    return (4, out.bytes)
  }

  private static func files(defining symbol: String, index: DescriptorIndex) -> (UInt64, [UInt8]) {
    guard let file = index.fileOfSymbol[symbol] else { return error(notFound: "no symbol \(symbol.prefix(200))") }
    return files(named: file, index: index)
  }

  /// ExtensionNumberResponse { base_type_name = 1; repeated int32 extension_number = 2 }: none.
  private static func extensionNumbers(of type: String, index: DescriptorIndex) -> (UInt64, [UInt8]) {
    guard index.fileOfSymbol[type] != nil else { return error(notFound: "no type \(type.prefix(200))") }
    var out = ProtoWriter()
    out.string(1, type)
    return (5, out.bytes)
  }

  /// ErrorResponse { error_code = 1; error_message = 2 } with gRPC's NOT_FOUND (5) or
  /// INVALID_ARGUMENT (3).
  private static func error(notFound message: String) -> (UInt64, [UInt8]) { error(code: 5, message) }
  private static func error(invalid message: String) -> (UInt64, [UInt8]) { error(code: 3, message) }

  private static func error(code: Int64, _ message: String) -> (UInt64, [UInt8]) {
    var out = ProtoWriter()
    out.int(1, code)
    out.string(2, message)
    return (7, out.bytes)
  }
}

internal import CChimeDescriptors

/// The files of Chime's descriptor set (`protoc --descriptor_set_out --include_imports` over
/// `Protos/`, committed and linked in) indexed for reflection: each file's bytes and
/// dependencies, and the file defining each fully-qualified symbol.
struct DescriptorIndex {
  struct File {
    let name: String
    let bytes: [UInt8]
    let dependencies: [String]
  }

  private(set) var files: [String: File] = [:]
  private(set) var fileOfSymbol: [String: String] = [:]
  private(set) var services: [String] = []

  /// The index of the descriptor set linked into chimed.
  static let chime: DescriptorIndex = {
    let bytes = Array(UnsafeRawBufferPointer(start: chime_descriptor_set_bytes(), count: Int(chime_descriptor_set_count())))
    return DescriptorIndex(descriptorSet: bytes)
  }()

  /// Reads a `google.protobuf.FileDescriptorSet { repeated FileDescriptorProto file = 1; }`.
  init(descriptorSet: [UInt8]) {
    var set = ProtoReader(descriptorSet)
    while let (field, value) = set.next() {
      guard field == 1, let file = value.slice else { continue }
      add(file: file)
    }
    services.sort()
  }

  /// FileDescriptorProto: name = 1, package = 2, dependency = 3, message_type = 4,
  /// enum_type = 5, service = 6.
  private mutating func add(file bytes: ArraySlice<UInt8>) {
    var name = ""
    var package = ""
    var dependencies: [String] = []
    var messages: [ArraySlice<UInt8>] = []
    var enums: [ArraySlice<UInt8>] = []
    var serviceProtos: [ArraySlice<UInt8>] = []
    var reader = ProtoReader(bytes)
    while let (field, value) = reader.next() {
      switch field {
      case 1: name = value.string ?? ""
      case 2: package = value.string ?? ""
      case 3: dependencies.append(value.string ?? "")
      case 4: value.slice.map { messages.append($0) }
      case 5: value.slice.map { enums.append($0) }
      case 6: value.slice.map { serviceProtos.append($0) }
      default: break
      }
    }
    files[name] = File(name: name, bytes: Array(bytes), dependencies: dependencies)
    let prefix = package.isEmpty ? "" : package + "."
    for message in messages { addMessage(message, prefix: prefix, file: name) }
    for enumProto in enums { fileOfSymbol[prefix + Self.name(of: enumProto)] = name }
    for service in serviceProtos {
      let serviceName = prefix + Self.name(of: service)
      fileOfSymbol[serviceName] = name
      services.append(serviceName)
      // ServiceDescriptorProto: method = 2 (MethodDescriptorProto: name = 1).
      var methods = ProtoReader(service)
      while let (field, value) = methods.next() {
        if field == 2, let method = value.slice { fileOfSymbol[serviceName + "." + Self.name(of: method)] = name }
      }
    }
  }

  /// DescriptorProto: name = 1, nested_type = 3, enum_type = 4.
  private mutating func addMessage(_ bytes: ArraySlice<UInt8>, prefix: String, file: String) {
    let fullName = prefix + Self.name(of: bytes)
    fileOfSymbol[fullName] = file
    var reader = ProtoReader(bytes)
    while let (field, value) = reader.next() {
      guard let nested = value.slice else { continue }
      if field == 3 { addMessage(nested, prefix: fullName + ".", file: file) }
      if field == 4 { fileOfSymbol[fullName + "." + Self.name(of: nested)] = file }
    }
  }

  /// Field 1, the name, of a descriptor message.
  private static func name(of bytes: ArraySlice<UInt8>) -> String {
    var reader = ProtoReader(bytes)
    while let (field, value) = reader.next() {
      if field == 1 { return value.string ?? "" }
    }
    return ""
  }

  /// `file` and every file it depends on, directly or not, each once, `file` first.
  func closure(of file: String) -> [File] {
    var seen: Set<String> = []
    var order: [File] = []
    var pending = [file]
    while let next = pending.popLast() {
      guard !seen.contains(next), let found = files[next] else { continue }
      seen.insert(next)
      order.append(found)
      pending.append(contentsOf: found.dependencies.reversed())
    }
    return order
  }
}

import Testing

/// Each transport is a module of its own that imports the service module (ChimeServer), the
/// Chime modules below the service, Swift packages, and its own C library only: never another
/// transport, never another C library. The service imports no transport. A fourth transport
/// is one more module, and one more line in `transports`.
@Suite struct TransportImportTests {
  /// Each transport module, with the C libraries that are its own.
  static let transports: [(module: String, ownC: Set<String>)] = [
    ("ChimeNativeTransport", []),
    // nghttp2, and the descriptor set of Protos/ it serves for reflection.
    ("ChimeGRPC", ["CNGHTTP2", "CChimeDescriptors"]),
    // sd-bus: the D-Bus API and the presenter's connection to the notification server.
    ("ChimeDBus", ["CSystemd"]),
  ]

  /// What every transport may import besides its own C libraries: the service, the Chime
  /// modules below it, the standard library's own modules and the Swift packages the service
  /// uses.
  static let shared: Set<String> = [
    "ChimeServer",
    "ChimeZoneFiles", "ChimeCore", "ChimeSystem", "ChimeRecords", "ChimeWire", "ChimeStore", "ChimeConfig",
    "Swift", "Synchronization", "Logging", "ExtrasBase64", "DequeModule", "HeapModule",
  ]

  /// Every module imported under `directory`, with where.
  static func imports(under directory: String) throws -> [(module: String, place: String)] {
    var found: [(String, String)] = []
    for file in RepositoryFiles.swiftFiles(under: directory) {
      for (index, line) in try RepositoryFiles.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard let module = FoundationBoundaryTests.importedModule(line) else { continue }
        found.append((String(module), "\(file):\(index + 1): \(line)"))
      }
    }
    return found
  }

  @Test func eachTransportImportsTheServiceAndItsOwnCLibraryOnly() throws {
    for (module, ownC) in Self.transports {
      let found = try Self.imports(under: "Sources/\(module)")
      #expect(!found.isEmpty, "no imports read under Sources/\(module)")
      #expect(found.contains { $0.module == "ChimeServer" }, "\(module) does not import the service module")
      for (imported, place) in found where !Self.shared.contains(imported) && !ownC.contains(imported) {
        Issue.record("\(module) imports \(imported), which is neither the service, a module below it nor its own C library: \(place)")
      }
    }
  }

  /// The service names no transport, and no transport's C library: chimed assembles them.
  @Test func theServiceImportsNoTransport() throws {
    let forbidden = Set(Self.transports.map(\.module)).union(Self.transports.flatMap(\.ownC))
    for (imported, place) in try Self.imports(under: "Sources/ChimeServer") where forbidden.contains(imported) {
      Issue.record("ChimeServer imports the transport module or C library \(imported): \(place)")
    }
  }

  /// Whether `line` declares a type (or extension) conforming to a protocol of the transport
  /// contract: the names after the declaration's colon.
  static func conformsToTheContract(_ line: Substring) -> Bool {
    let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
    guard let kind = words.firstIndex(where: { ["class", "struct", "enum", "extension", "actor"].contains($0) }),
          let colon = line.firstIndex(of: ":"), line[..<colon].split(separator: " ").contains(words[kind]) else { return false }
    let contract: Set<Substring> = ["StreamProtocol", "ServerTransport", "StreamProtocolFactory", "TransportFactory"]
    return line[line.index(after: colon)...].split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains(where: contract.contains)
  }

  @Test func conformancesAreReadFromDeclarations() {
    #expect(Self.conformsToTheContract("final class GRPCProtocol: StreamProtocol {"))
    #expect(Self.conformsToTheContract("package struct GRPCTransport: StreamProtocolFactory {"))
    #expect(Self.conformsToTheContract("extension DBusFace: ServerTransport {"))
    #expect(!Self.conformsToTheContract("  static var transports: ServerTransports {"))
    #expect(!Self.conformsToTheContract("/// the transport contract (`StreamProtocol`)"))
  }

  /// The table above covers every transport: a module that names the transport contract's
  /// `StreamProtocol` or `ServerTransport` is listed (so its imports are checked).
  @Test func everyTransportModuleIsChecked() throws {
    let listed = Set(Self.transports.map(\.module))
    for directory in RepositoryFiles.directories(under: "Sources") where directory != "Sources/ChimeServer" {
      let module = String(directory.dropFirst("Sources/".count))
      for file in RepositoryFiles.swiftFiles(under: directory) {
        let implements = try RepositoryFiles.text(file).split(separator: "\n").contains(where: Self.conformsToTheContract)
        #expect(!implements || listed.contains(module), "\(file) implements a transport, but \(module) is not in TransportImportTests.transports")
      }
    }
  }
}

import Foundation

/// The repository's own files, found from this file's path (Tests/ChimeCoreTests/Errors/...),
/// for tests that check the sources and the README against the code.
enum RepositoryFiles {
  static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // this file, Errors, ChimeCoreTests, Tests
    return url
  }()

  /// The text of `path`, relative to the repository root.
  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// Every `.swift` file under `directory`, as paths relative to the repository root, sorted.
  static func swiftFiles(under directory: String) -> [String] {
    let base = root.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    var paths: [String] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      paths.append(directory + "/" + url.path.dropFirst(base.path.count + 1))
    }
    return paths.sorted()
  }

  /// The directories directly under `directory`, as paths relative to the repository root, sorted.
  static func directories(under directory: String) -> [String] {
    let base = root.appendingPathComponent(directory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
    return names.filter { name in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: base.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
    }.map { directory + "/" + $0 }.sorted()
  }
}

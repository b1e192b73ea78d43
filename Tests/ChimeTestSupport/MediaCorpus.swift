public import Foundation

/// The committed media fixtures (Tests/Fixtures/media), found from this file's path, and ways to
/// put copies of them where a test wants them.
public enum MediaCorpus {
  public static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }  // ChimeTestSupport, Tests
    return url.appendingPathComponent("Fixtures/media").path
  }()

  /// e.g. `images/png-rgb.png`.
  public static func path(_ name: String) -> String { root + "/" + name }

  public static func data(_ name: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path(name)) else { fatalError("missing fixture \(name)") }
    return data
  }

  /// Copies fixture `name` to `destination` (creating its directory) and returns the path.
  @discardableResult
  public static func copy(_ name: String, to destination: String) -> String {
    write(data(name), to: destination)
  }

  /// Writes `data` to `destination` (creating its directory) and returns the path.
  @discardableResult
  public static func write(_ data: Data, to destination: String) -> String {
    let directory = (destination as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: destination, contents: data) else { fatalError("cannot write \(destination)") }
    return destination
  }

  public static func exists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
  }

  /// Regular files below `directory`, sorted.
  public static func files(under directory: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var found: [String] = []
    while let next = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: directory + "/" + next, isDirectory: &isDirectory), !isDirectory.boolValue {
        found.append(directory + "/" + next)
      }
    }
    return found.sorted()
  }
}

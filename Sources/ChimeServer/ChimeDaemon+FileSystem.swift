import ChimeSystem

extension ChimeDaemon {
  /// ChimeSystem's `FileSystem.realPath` under the name ChimeDaemon.swift calls it by: that
  /// file does not import ChimeSystem (it is being reworked on another branch). Remove this
  /// once it does.
  enum FileSystem {
    static func realPath(_ path: String) -> String? { ChimeSystem.FileSystem.realPath(path) }
  }
}

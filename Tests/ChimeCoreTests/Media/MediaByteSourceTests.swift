import ChimeCore
import Foundation
import Glibc
import Testing

/// A fresh directory for one test, removed afterwards.
final class MediaTempDirectory {
  let path: String

  init() {
    var template = Array("/tmp/chime-media-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: made!)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let file = path + "/" + name
    _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    return file
  }

  /// Opens `file` read-only without following a symlink, as the daemon will, and closes it after.
  func withOpenFile<T>(_ file: String, _ body: (Int32) throws(ChimeError) -> T) throws(ChimeError) -> T {
    let fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw .internal("open failed") }
    defer { close(fd) }
    return try body(fd)
  }
}

@Suite("Byte sources")
struct MediaByteSourceTests {
  @Test func memoryReadsAreBoundsChecked() throws {
    let source = MemoryByteSource([1, 2, 3, 4])
    #expect(try source.read(at: 1, count: 2) == [2, 3])
    #expect(try source.read(at: 4, count: 0) == [])
    for (offset, count) in [(3, 2), (-1, 1), (0, -1), (5, 0), (Int.max, 1), (1, Int.max)] {
      #expect(throws: ChimeError.self) { try source.read(at: offset, count: count) }
    }
  }

  @Test func fileDescriptorReadsWithPread() throws {
    let dir = MediaTempDirectory()
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let file = dir.write("data.bin", bytes)
    try dir.withOpenFile(file) { fd throws(ChimeError) in
      let source = try FileDescriptorByteSource(fileDescriptor: fd)
      #expect(source.count == 200_000)
      #expect(try source.read(at: 70_000, count: 100_000) == Array(bytes[70_000..<170_000]))
      #expect(lseek(fd, 0, SEEK_CUR) == 0, "pread must not move the file offset")
      #expect(throws: ChimeError.self) { try source.read(at: 199_999, count: 2) }
    }
  }

  @Test func fileDescriptorInspectsFixtures() throws {
    let dir = MediaTempDirectory()
    for name in ["movies/mp4-video-audio.mp4", "images/jpeg-progressive.jpg", "sounds/caf-ima4.caf"] {
      let file = dir.write("f", MediaFixtures.bytes(name))
      try dir.withOpenFile(file) { fd throws(ChimeError) in
        let source = try FileDescriptorByteSource(fileDescriptor: fd)
        if name.hasSuffix(".caf") {
          #expect(try SoundInspector.inspect(source).codec == .ima4)
        } else {
          #expect(try MediaInspector.inspect(source) == MediaInspector.inspect(MemoryByteSource(MediaFixtures.bytes(name))))
        }
      }
    }
  }

  @Test func directoryIsNotARegularFile() throws {
    let dir = MediaTempDirectory()
    let fd = open(dir.path, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    #expect(throws: ChimeError(.invalidArgument, reason: "ATTACHMENT_INVALID_URL", "not a regular file")) {
      _ = try FileDescriptorByteSource(fileDescriptor: fd)
    }
  }

  @Test func fileThatShrinksWhileReadIsAReadFailure() throws {
    let dir = MediaTempDirectory()
    let file = dir.write("m.mp4", MediaFixtures.bytes("movies/mp4-video.mp4"))
    try dir.withOpenFile(file) { fd throws(ChimeError) in
      let source = try FileDescriptorByteSource(fileDescriptor: fd)
      _ = truncate(file, 100)
      do throws(ChimeError) {
        _ = try MediaInspector.inspect(source)
        Issue.record("a file that shrank should not be accepted")
      } catch {
        #expect(error.reason == "MEDIA_READ_FAILED")
        #expect(error.code == .internal)
      }
    }
  }
}

import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Inspecting through a descriptor: what the daemon and the CLI do with the file they opened.
@Suite struct FileDescriptorByteSourceTests {
  let dir = TemporaryDirectory(prefix: "chime-media")

  func write(_ name: String, _ bytes: [UInt8]) -> String {
    MediaCorpus.write(Data(bytes), to: dir.file(name))
  }

  /// Opens `file` as the daemon does and closes it after.
  func withOpenFile<T>(_ file: String, _ body: (RegularFile) throws(ChimeError) -> T) throws -> T {
    let opened = try RegularFile.open(file)
    defer { opened.close() }
    return try body(opened)
  }

  @Test func readsWithPread() throws {
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let file = write("data.bin", bytes)
    try withOpenFile(file) { file throws(ChimeError) in
      let source = try FileDescriptorByteSource(fileDescriptor: file.descriptor.rawValue)
      #expect(source.count == 200_000)
      #expect(try source.read(at: 70_000, count: 100_000) == Array(bytes[70_000..<170_000]))
      #expect(lseek(file.descriptor.rawValue, 0, SEEK_CUR) == 0, "pread must not move the file offset")
      #expect(throws: ChimeError.self) { try source.read(at: 199_999, count: 2) }
    }
  }

  @Test func inspectsFixturesAsFromMemory() throws {
    for name in ["movies/mp4-video-audio.mp4", "images/jpeg-progressive.jpg", "sounds/caf-ima4.caf"] {
      let bytes = [UInt8](MediaCorpus.data(name))
      try withOpenFile(write("f", bytes)) { file throws(ChimeError) in
        if name.hasSuffix(".caf") {
          #expect(try SoundInspector.inspect(file.byteSource).codec == .ima4)
        } else {
          #expect(try MediaInspector.inspect(file.byteSource) == MediaInspector.inspect(MemoryByteSource(bytes)))
        }
      }
    }
  }

  @Test func namesNeverCount() throws {
    let png = write("picture.mp4", [UInt8](MediaCorpus.data("images/png-rgb.png")))
    let facts = try withOpenFile(png) { file throws(ChimeError) in try MediaInspector.inspect(file.byteSource) }
    #expect(facts.type == .png)
  }

  @Test func directoryIsNotARegularFile() throws {
    let fd = open(dir.path, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    #expect(throws: ChimeError(.invalidArgument, reason: "ATTACHMENT_INVALID_URL", "not a regular file")) {
      _ = try FileDescriptorByteSource(fileDescriptor: fd)
    }
  }

  @Test func fileThatShrinksWhileReadIsAReadFailure() throws {
    let file = write("m.mp4", [UInt8](MediaCorpus.data("movies/mp4-video.mp4")))
    try withOpenFile(file) { opened throws(ChimeError) in
      let source = opened.byteSource
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

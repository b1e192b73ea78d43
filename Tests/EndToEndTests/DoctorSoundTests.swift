import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// `chime doctor`'s sound check says what would actually play: whether there is an audio
/// output, and which way the default sound (Ogg Vorbis) takes; aplay, which would play it as
/// noise, is never named as its player.
@Suite struct DoctorSoundTests {
  func sound(_ dir: TemporaryDirectory, players: [String], runtime: String) throws -> (status: String, detail: String, hint: String) {
    let bin = dir.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for name in players { ExecutableScript.write("exit 0", to: bin + "/" + name) }
    let result = try ChildProcess.run(DaemonProcess.binDirectory + "/chime",
                                      ["doctor", "--json", "--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"],
                                      environment: ["PATH": bin, "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": ""])
    let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    let check = (object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "sound" }
    return (check?["status"] as? String ?? "", check?["detail"] as? String ?? "", check?["hint"] as? String ?? "")
  }

  static var hasSoundDevice: Bool {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).contains { $0.hasPrefix("pcm") && $0.hasSuffix("p") }
  }

  /// A socket file at `path`, as a sound server's.
  func bindSocket(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in Array(path.utf8).prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
  }

  @Test(.enabled(if: !hasSoundDevice, "this machine has a sound device"))
  func noDeviceAndNoServerIsNoAudioOutput() throws {
    let dir = TemporaryDirectory()
    let runtime = dir.file("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let check = try sound(dir, players: ["aplay"], runtime: runtime)
    #expect(check.status == "warn", "\(check)")
    #expect(check.detail.hasPrefix("no audio output: no sound device (/dev/snd/pcm*) and no PipeWire or PulseAudio socket"), "\(check)")
    #expect(check.detail.contains("aplay (WAV with PCM or float samples only)"), "\(check)")
    #expect(!check.detail.contains(", else aplay"), "\(check)")
  }

  /// With a sound server, the default sound's way is named: libcanberra (when installed), then
  /// the players that decode Ogg; with only aplay, nothing plays it once libcanberra cannot.
  @Test func aSoundServerAndTheDefaultSoundsWay() throws {
    let dir = TemporaryDirectory()
    let runtime = dir.file("runtime")
    try bindSocket(runtime + "/pulse/native")
    let onlyAplay = try sound(dir, players: ["aplay"], runtime: runtime)
    #expect(onlyAplay.detail.contains("PulseAudio server at \(runtime)/pulse/native"), "\(onlyAplay)")
    #expect(onlyAplay.detail.contains("aplay (WAV with PCM or float samples only)"), "\(onlyAplay)")
    #expect(!onlyAplay.detail.contains("else aplay") && !onlyAplay.detail.contains("through aplay"), "\(onlyAplay)")

    let withPaplay = try sound(dir, players: ["aplay", "paplay"], runtime: runtime)
    #expect(withPaplay.status == "ok", "\(withPaplay)")
    #expect(withPaplay.detail.hasSuffix("paplay"), "paplay plays it, aplay is not named: \(withPaplay)")
    #expect(withPaplay.detail.contains("; the default sound plays through "), "\(withPaplay)")
  }
}

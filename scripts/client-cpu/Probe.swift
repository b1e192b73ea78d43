// The CPU a ChimeClient spends per unary call: N sequential calls against a running chimed,
// measured with getrusage(RUSAGE_SELF) around the loop (after a warm-up). Built and run by
// scripts/client-cpu.sh against the release build's modules.
import ChimeClient
import ChimeCore
import ChimeWire
import Glibc

@main
struct Probe {
  static func main() async throws {
    // Off the main actor: a library caller on the global executor, no hop per call.
    try await Task.detached { try await measure() }.value
  }

  static func measure() async throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4 else {
      print("usage: client-cpu-probe SOCKET add|settings COUNT [TIMEOUT_SECONDS]")
      exit(64)
    }
    let socket = arguments[1], kind = arguments[2], count = Int(arguments[3]) ?? 5000
    let timeout = arguments.count > 4 ? Double(arguments[4]) : nil
    let client = try ChimeClient.connect(socketPath: socket, app: "org.chime.probe", timeout: timeout)
    let run = ContinuousClock.now.hashValue & 0xFFFF
    var reply: [UInt8] = []
    func call(_ i: Int) async throws {
      switch kind {
      case "add":
        let request = NotificationRequest(
          identifier: "probe-\(run)-\(i)",
          content: NotificationContent(title: "Probe \(i)", body: "A pending request for the probe"),
          trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400 + Double(i))))
        _ = try await client.add(request)
      case "codec", "codec-gap":
        if kind == "codec-gap" { usleep(1500) }
        // The add's encoding and decoding alone, no I/O (reply bytes from one real add).
        let request = NotificationRequest(
          identifier: "probe-\(run)-\(i)",
          content: NotificationContent(title: "Probe \(i)", body: "A pending request for the probe"),
          trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400 + Double(i))))
        let bytes = try Calls.add.encodeRequest(request)
        if i < 0 && i > -2 { reply = try await client.call(.add, payload: bytes) }
        _ = try Calls.add.decodeResponse(reply)
      case "sleep":
        usleep(1500)
      case "settings-gap":
        // A read-only call after 1.5 ms idle, as an add waits for its commit.
        usleep(1500)
        _ = try await client.settings()
      default:
        _ = try await client.settings()
      }
    }
    for i in 0..<200 { try await call(-1 - i) }
    var before = rusage(), after = rusage()
    getrusage(RUSAGE_SELF.rawValue, &before)
    let start = ContinuousClock.now
    for i in 0..<count { try await call(i) }
    let wall = ContinuousClock.now - start
    getrusage(RUSAGE_SELF.rawValue, &after)
    func micros(_ t: timeval) -> Double { Double(t.tv_sec) * 1e6 + Double(t.tv_usec) }
    let user = micros(after.ru_utime) - micros(before.ru_utime)
    let sys = micros(after.ru_stime) - micros(before.ru_stime)
    let n = Double(count)
    let wallMicros = Double(wall.components.seconds) * 1e6 + Double(wall.components.attoseconds) / 1e12
    print("\(kind) x\(count): cpu/call \(fmt((user + sys) / n)) us (user \(fmt(user / n)), sys \(fmt(sys / n)));"
      + " wall/call \(fmt(wallMicros / n)) us; ctx switches/call vol \(fmt(Double(after.ru_nvcsw - before.ru_nvcsw) / n))"
      + " invol \(fmt(Double(after.ru_nivcsw - before.ru_nivcsw) / n))")
  }

  static func fmt(_ x: Double) -> String {
    let r = (x * 10).rounded() / 10
    return "\(r)"
  }
}

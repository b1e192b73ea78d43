import Foundation
import Glibc

/// Everything one run measured: figures, the floors measured beside them, and the issue's goals
/// as checks (a ratio to a floor, or an absolute bound). A missed goal is reported, never an
/// error: the benchmark fails only when it cannot measure.
struct Report: Encodable {
  struct Figure: Encodable {
    var value: Double
    var unit: String
    var note: String?
  }

  struct Check: Encodable {
    var name: String
    var value: Double
    var unit: String
    /// The floor's name in `floors` (nil for an absolute goal).
    var floor: String?
    var floorValue: Double?
    /// value / floor (nil for an absolute goal).
    var ratio: Double?
    /// "≥ 0.65× floor", "≤ 15 MiB", ...
    var goal: String
    var holds: Bool
    var note: String?
  }

  var revision: String
  /// What the measured chimed says it is (GetServerInfo): its release and the commit it was
  /// built from, whichever checkout the benchmark runs in.
  var daemonVersion: String?
  var date: String
  var machine: String
  var arguments: [String]
  var figures: [String: Figure] = [:]
  var floors: [String: Figure] = [:]
  var checks: [Check] = []
  var skipped: [String] = []

  init(revision: String, machine: String) {
    self.revision = revision
    self.machine = machine
    self.date = ISO8601DateFormatter().string(from: Date())
    self.arguments = Array(CommandLine.arguments.dropFirst())
  }

  mutating func figure(_ key: String, _ value: Double, _ unit: String, note: String? = nil) {
    figures[key] = Figure(value: value, unit: unit, note: note)
  }

  mutating func floor(_ key: String, _ value: Double, _ unit: String, note: String? = nil) {
    floors[key] = Figure(value: value, unit: unit, note: note)
  }

  /// A goal relative to a floor: `value / floor` must be at least (`atLeast`) or at most the
  /// bound. Unknown floors (skipped) make no check.
  mutating func check(_ name: String, figure: String, floor floorKey: String, atLeast: Bool, bound: Double, note: String? = nil) {
    guard let f = figures[figure], let fl = floors[floorKey], fl.value > 0 else { return }
    let ratio = f.value / fl.value
    let holds = atLeast ? ratio >= bound : ratio <= bound
    checks.append(Check(name: name, value: f.value, unit: f.unit, floor: floorKey, floorValue: fl.value, ratio: ratio,
                        goal: "\(atLeast ? "≥" : "≤") \(Self.number(bound))× floor", holds: holds, note: note))
  }

  /// An absolute goal: the figure at most (or at least) `bound`, in the figure's unit.
  mutating func check(_ name: String, figure: String, atMost bound: Double, note: String? = nil) {
    guard let f = figures[figure] else { return }
    checks.append(Check(name: name, value: f.value, unit: f.unit, floor: nil, floorValue: nil, ratio: nil,
                        goal: "≤ \(Self.number(bound)) \(f.unit)", holds: f.value <= bound, note: note))
  }

  /// Prints every check: the figure, its ratio to the floor beside it, the goal, and whether
  /// it holds.
  func printChecks() {
    print("")
    print("== goals (each figure beside the floor measured in this run) ==")
    for c in checks {
      var line = "\(c.name) \(Self.number(c.value)) \(c.unit)"
      if let ratio = c.ratio, let floor = c.floor, let floorValue = c.floorValue {
        line += " = \(String(format: "%.2f", ratio))× floor \(floor) \(Self.number(floorValue)) \(floors[floor]?.unit ?? "")"
      }
      line += " (goal \(c.goal)) \(c.holds ? "holds" : "MISSED")"
      if let note = c.note { line += "  [\(note)]" }
      print(line)
    }
    for s in skipped { print("skipped: \(s)") }
    let missed = checks.filter { !$0.holds }.count
    print("\(checks.count - missed) of \(checks.count) goals hold, \(missed) missed (a missed goal is reported, not an error)")
  }

  func write(json path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(self)
    try data.write(to: URL(fileURLWithPath: path))
    print("wrote \(path)")
  }

  /// 42000 → "42.0k", 0.166 → "0.166", 27.5 → "27.5".
  static func number(_ v: Double) -> String {
    if v.isNaN { return "n/a" }
    if abs(v) >= 10_000 { return String(format: "%.1fk", v / 1000) }
    if abs(v) >= 100 { return String(format: "%.0f", v) }
    if abs(v) >= 10 { return String(format: "%.1f", v) }
    if abs(v) >= 1 { return String(format: "%.2f", v) }
    return String(format: "%.3g", v)
  }
}

enum Revision {
  /// `git describe`-like: the short commit of the checkout this binary is run from, with
  /// "+dirty" when files differ; "unknown" outside a checkout.
  static func current(scratch: String) -> String {
    guard let head = try? Spawned.run("git", ["rev-parse", "--short=12", "HEAD"], scratch: scratch, timeoutSeconds: 10),
          head.status == 0 else { return "unknown" }
    var text = head.output.trimmingCharacters(in: .whitespacesAndNewlines)
    if let status = try? Spawned.run("git", ["status", "--porcelain", "--untracked-files=no"], scratch: scratch, timeoutSeconds: 10),
       !status.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      text += "+dirty"
    }
    return text
  }
}

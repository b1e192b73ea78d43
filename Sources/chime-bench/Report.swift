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
    /// The verdict is "holds" (the goal holds in the middle rounds), "missed" (it fails in
    /// all of them) or "unclear" (the rounds straddle the goal: the spread is too wide to tell).
    var verdict: String
    var holds: Bool { verdict == "holds" }
    /// Measured in rounds: how many, and the lowest and highest round's ratio (or value).
    var rounds: Int?
    var low: Double?
    var high: Double?
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
  /// Each round's value of a figure or floor measured in rounds (its figure is their median).
  var rounds: [String: [Double]] = [:]
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

  /// A figure or floor measured in rounds: its value is their median, the rounds are kept for
  /// the spread of the checks that use it.
  mutating func figure(_ key: String, rounds values: [Double], _ unit: String, note: String? = nil) {
    guard !values.isEmpty else { return }
    rounds[key] = values
    figure(key, values.sorted().percentile(0.5), unit, note: note)
  }

  mutating func floor(_ key: String, rounds values: [Double], _ unit: String, note: String? = nil) {
    guard !values.isEmpty else { return }
    rounds[key] = values
    floor(key, values.sorted().percentile(0.5), unit, note: note)
  }

  /// A goal relative to a floor: `value / floor` must be at least (`atLeast`) or at most the
  /// bound. When both were measured in the same rounds the ratio is taken round by round (each
  /// figure against the floor measured beside it) and the median ratio is reported. Unknown
  /// floors (skipped) make no check.
  mutating func check(_ name: String, figure: String, floor floorKey: String, atLeast: Bool, bound: Double, note: String? = nil) {
    guard let f = figures[figure], let fl = floors[floorKey], fl.value > 0 else { return }
    var ratios = [f.value / fl.value]
    if let fs = rounds[figure], let ls = rounds[floorKey], fs.count == ls.count, fs.count > 1 {
      ratios = zip(fs, ls).map { $0 / $1 }
    } else if let fs = rounds[figure], fs.count > 1 {
      ratios = fs.map { $0 / fl.value }
    } else if let ls = rounds[floorKey], ls.count > 1 {
      ratios = ls.map { f.value / $0 }
    }
    let sorted = ratios.sorted()
    checks.append(Check(name: name, value: f.value, unit: f.unit, floor: floorKey, floorValue: fl.value, ratio: sorted.percentile(0.5),
                        goal: "\(atLeast ? "≥" : "≤") \(Self.number(bound))× floor",
                        verdict: Self.verdict(sorted) { atLeast ? $0 >= bound : $0 <= bound },
                        rounds: sorted.count > 1 ? sorted.count : nil, low: sorted.first, high: sorted.last, note: note))
  }

  /// An absolute goal: the figure at most `bound`, in the figure's unit.
  mutating func check(_ name: String, figure: String, atMost bound: Double, note: String? = nil) {
    guard let f = figures[figure] else { return }
    let sorted = (rounds[figure] ?? [f.value]).sorted()
    checks.append(Check(name: name, value: f.value, unit: f.unit, floor: nil, floorValue: nil, ratio: nil,
                        goal: "≤ \(Self.number(bound)) \(f.unit)", verdict: Self.verdict(sorted) { $0 <= bound },
                        rounds: sorted.count > 1 ? sorted.count : nil, low: sorted.first, high: sorted.last, note: note))
  }

  /// Whether a goal holds over `sorted` rounds: judged on the middle rounds (a fifth at each
  /// end set aside: one burst elsewhere on a shared machine does not decide), "unclear" when
  /// they fall on both sides of the bound.
  static func verdict(_ sorted: [Double], passes: (Double) -> Bool) -> String {
    let trim = sorted.count / 5
    let middle = sorted[trim..<(sorted.count - trim)]
    if middle.allSatisfy(passes) { return "holds" }
    if !middle.contains(where: passes) { return "missed" }
    return "unclear"
  }

  /// Prints every check: the figure, its ratio to the floor beside it, the rounds' spread, the
  /// goal, and the verdict.
  func printChecks() {
    print("")
    print("== goals (each figure beside the floor measured in this run) ==")
    for c in checks {
      var line = "\(c.name) \(Self.number(c.value)) \(c.unit)"
      let ratioUnit = c.ratio == nil ? " \(c.unit)" : "×"
      if let ratio = c.ratio, let floor = c.floor, let floorValue = c.floorValue {
        line += " = \(String(format: "%.2f", ratio))× floor \(floor) \(Self.number(floorValue)) \(floors[floor]?.unit ?? "")"
      }
      if let rounds = c.rounds, let low = c.low, let high = c.high {
        let middle = c.ratio ?? c.value
        line += " [\(rounds) rounds \(Self.number(low))–\(Self.number(high))\(ratioUnit), spread ±\(String(format: "%.0f", (high - low) / 2 / max(abs(middle), 1e-12) * 100))%]"
      }
      line += " (goal \(c.goal)) \(c.verdict == "holds" ? "holds" : c.verdict == "missed" ? "MISSED" : "UNCLEAR (the rounds straddle the goal)")"
      if let note = c.note { line += "  [\(note)]" }
      print(line)
    }
    for s in skipped { print("skipped: \(s)") }
    let held = checks.filter(\.holds).count
    let missed = checks.filter { $0.verdict == "missed" }.count
    print("\(held) of \(checks.count) goals hold, \(missed) missed, \(checks.count - held - missed) unclear (a missed goal is reported, not an error)")
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

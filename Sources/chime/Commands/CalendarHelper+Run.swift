import ArgumentParser
import ChimeSystem

extension CalendarHelper {
  /// Runs `chime-calendar ARGUMENTS` with `input` on its stdin and returns its stdout; its stderr
  /// lines are printed as `chime: …`. Exits 1 (after saying why) when the helper is missing,
  /// fails or writes more than `maxOutputBytes`.
  static func run(_ arguments: [String], input: [UInt8] = [], maxOutputBytes: Int = 256 << 20) throws -> [UInt8] {
    guard let helper = locate() else {
      printError("chime: no \(name) found (looked in \(candidates().joined(separator: ", ")))")
      throw ExitCode(1)
    }
    let run = Subprocess.capture([helper] + arguments, timeoutMillis: 300_000, maxOutputBytes: maxOutputBytes, input: input)
    for line in String(decoding: run.stderr, as: UTF8.self).split(whereSeparator: \.isNewline) { printError("chime: \(line)") }
    guard run.outcome == .exited(0), !run.truncated else {
      if run.outcome != .exited(1) { printError("chime: \(name) ended: \(run.outcome)\(run.truncated ? " (output too large)" : "")") }
      throw ExitCode(1)
    }
    return run.stdout
  }
}

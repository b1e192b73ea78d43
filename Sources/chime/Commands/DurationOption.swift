import ArgumentParser
import ChimeCore

/// A duration on the command line, read by `DurationInput` (one grammar for every duration the
/// CLI takes); a refusal is a bad command line (exit 64) naming the option.
enum DurationOption {
  /// Seconds.
  ///
  /// - Throws: `ValidationError` "OPTION: why" (just "why" for an argument, `option` nil), with
  ///   `hint` after it when given.
  static func parse(_ text: String, option: String?, _ bounds: DurationInput.Bounds, hint: String? = nil) throws -> Double {
    do {
      return try DurationInput.parse(text, bounds)
    } catch {
      throw ValidationError((option.map { "\($0): " } ?? "") + error.message + (hint.map { " (\($0))" } ?? ""))
    }
  }
}

/// What chimed's command line asks for, from `ChimedCommandLine.parse`.
public enum ChimedCommand: Equatable, Sendable {
  case run(ChimedArguments)
  /// `-h`, `--help`: print `ChimedCommandLine.help` and exit 0.
  case help
  /// `--version`: print the version and exit 0.
  case version
}

/// The options of one chimed run.
public struct ChimedArguments: Equatable, Sendable {
  public var configPath: String?
  public var printConfig = false
  public var compactStore = false
  /// The settings given as flags, by `ConfigKey` name, the text as given (checked by
  /// `ChimedConfig.resolve` with the file's values).
  public var settings: [String: String] = [:]
  public var thumbnailTimeout: Double = 10
  public var clockOffset: Double = 0
  public var procRoot = "/proc"
  public var fileLaneWidth = 2

  public init() {}
}

/// A command line chimed cannot run: chimed prints `text` on stderr and exits with
/// `exitStatus` (EX_USAGE), the way the usage errors of Chime's CLI read.
public struct UsageError: Error, Equatable, Sendable {
  public static let exitStatus: Int32 = 64

  public let message: String
  /// For a missing value: the option's line of help.
  public let help: String?

  public init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  public var text: String {
    "Error: \(message)\n" + (help.map { "Help:  \($0)\n" } ?? "")
      + "Usage: chimed <options>\n  See 'chimed --help' for more information.\n"
  }
}

/// chimed's command line: `--name value` or `--name=value` for each option of
/// `ChimedOption.all`, `--help`/`-h`, `--version`. A value is the next argument unless that
/// looks like an option (`--clock-offset -5` is refused: `--clock-offset=-5`); the last of a
/// repeated option wins.
public enum ChimedCommandLine {
  public static func parse(_ arguments: [String]) throws(UsageError) -> ChimedCommand {
    let options = arguments.prefix { $0 != "--" }
    if options.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
    if options.contains("--version") { return .version }
    var parsed = ChimedArguments()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        if index < arguments.count { throw UsageError("Unexpected argument '\(arguments[index])'") }
        break
      }
      guard looksLikeOption(argument) else { throw UsageError("Unexpected argument '\(argument)'") }
      guard argument.hasPrefix("--") else { throw UsageError("Unknown option '\(argument)'") }
      let body = argument.dropFirst(2)
      let equals = body.firstIndex(of: "=")
      let name = String(body[..<(equals ?? body.endIndex)])
      let inline = equals.map { String(body[body.index(after: $0)...]) }
      guard let option = ChimedOption.named(name) else { throw unknown("--\(name)") }
      if option.kind == .flag {
        if let inline { throw UsageError("The option '--\(name)' does not take any value, but '\(inline)' was specified.") }
        if name == "print-config" { parsed.printConfig = true } else { parsed.compactStore = true }
        continue
      }
      let value: String
      if let inline, !inline.isEmpty {
        value = inline
      } else if inline == nil, index < arguments.count, !looksLikeOption(arguments[index]) {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError("Missing value for '\(option.errorLabel)'", help: option.help.map { "\(option.label)  \($0)" })
      }
      try assign(value, to: option, in: &parsed)
    }
    return .run(parsed)
  }

  static func looksLikeOption(_ argument: String) -> Bool { argument.hasPrefix("-") && argument.count > 1 }

  static func assign(_ value: String, to option: ChimedOption, in parsed: inout ChimedArguments) throws(UsageError) {
    let invalid = UsageError("The value '\(value)' is invalid for '\(option.errorLabel)'")
    switch (option.kind, option.name) {
    case (.setting, _): parsed.settings[option.name] = value
    case (_, "config"): parsed.configPath = value
    case (_, "proc-root"): parsed.procRoot = value
    case (_, "thumbnail-timeout"):
      guard let seconds = Double(value), abs(seconds) <= ConfigKey.maximumSeconds else { throw invalid }
      parsed.thumbnailTimeout = seconds
    case (_, "clock-offset"):
      guard let seconds = Double(value), abs(seconds) <= ConfigKey.maximumSeconds else { throw invalid }
      parsed.clockOffset = seconds
    case (_, "file-lane-width"):
      guard let width = Int(value) else { throw invalid }
      parsed.fileLaneWidth = width
    default:
      preconditionFailure("ChimedOption \(option.name) has no place in ChimedArguments")
    }
  }

  /// "Unknown option", with the listed option nearest in spelling when one is close.
  static func unknown(_ flag: String) -> UsageError {
    let listed = ChimedOption.all.filter { $0.help != nil }.map { "--\($0.name)" } + ["--version", "--help"]
    let nearest = listed.map { ($0, editDistance(flag.lowercased(), $0)) }.min { $0.1 < $1.1 }
    guard let nearest, nearest.1 <= 2 else { return UsageError("Unknown option '\(flag)'") }
    return UsageError("Unknown option '\(flag)'. Did you mean '\(nearest.0)'?")
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var row = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where !b.isEmpty {
        row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = row
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}

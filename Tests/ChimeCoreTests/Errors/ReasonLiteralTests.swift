import ChimeCore
import Foundation
import Testing

/// Reasons are spelled once, in the catalogue (Sources/ChimeCore/Errors/Reason*.swift): a
/// reason written as a string literal anywhere else in Sources/ fails here.
@Suite struct ReasonLiteralTests {
  /// Files that may always spell reasons: the catalogue, and the status code names (a few
  /// reasons are spelled like a code: `INTERNAL`, `CANCELLED`, ...).
  static let exempt: Set<String> = [
    "Sources/ChimeCore/Errors/Reason.swift", "Sources/ChimeCore/Errors/Reason+Transport.swift",
    "Sources/ChimeCore/Errors/Reason+Requests.swift", "Sources/ChimeCore/Errors/Reason+Service.swift",
    "Sources/ChimeCore/Errors/StatusCode.swift",
  ]

  struct Literal: CustomStringConvertible {
    var file: String
    var line: Int
    var text: String
    var description: String { "\(file):\(line): \"\(text)\"" }
  }

  /// Literals in a reason's place (`reason: "X"`, `reason == "X"`, `.invalidArgument("X", ...`,
  /// `.notFound("X", ...`, possibly across lines) and any literal spelling a catalogued reason.
  /// Comment lines are skipped.
  static func reasonLiterals(in file: String) throws -> [Literal] {
    let text = try RepositoryFiles.text(file)
    let known = Set(Reason.all.map(\.name))
    var found: [Literal] = []
    var seen = Set<String>()
    func record(_ range: Range<String.Index>, _ name: Substring) {
      let line = text[..<range.lowerBound].reduce(into: 1) { count, c in if c == "\n" { count += 1 } }
      let lineStart = text[..<range.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
      guard !text[lineStart...].drop(while: { $0 == " " }).hasPrefix("//") else { return }
      guard seen.insert("\(line) \(name)").inserted else { return }
      found.append(Literal(file: file, line: line, text: String(name)))
    }
    let inReasonPlace = /(?:reason:\s*|reason\s*[!=]?=\s*|\.(?:invalidArgument|notFound)\(\s*)"([A-Z][A-Z0-9_]*)"/
    for match in text.matches(of: inReasonPlace) {
      record(match.range, match.output.1)
    }
    for match in text.matches(of: /"([A-Z][A-Z0-9_]*)"/) where known.contains(String(match.output.1)) {
      record(match.range, match.output.1)
    }
    return found.sorted { ($0.line, $0.text) < ($1.line, $1.text) }
  }

  static let sources = RepositoryFiles.swiftFiles(under: "Sources")

  @Test func everyReasonSpelledInSourcesIsCatalogued() throws {
    #expect(Self.sources.count > 100, "found only \(Self.sources.count) files under \(RepositoryFiles.root.path)/Sources")
    let known = Set(Reason.all.map(\.name))
    for file in Self.sources where !Self.exempt.contains(file) {
      for literal in try Self.reasonLiterals(in: file) where !known.contains(literal.text) {
        Issue.record("\(literal) is not in the reason catalogue: add it to the catalogue (Sources/ChimeCore/Errors/Reason+*.swift, and `Reason.all`) and the README's Reasons table")
      }
    }
  }

  @Test func noReasonIsSpelledOutsideTheCatalogue() throws {
    for file in Self.sources where !Self.exempt.contains(file) {
      for literal in try Self.reasonLiterals(in: file) {
        Issue.record("\(literal): use the catalogue constant instead (ChimeError(.someReason, ...), Reason.someReason.name, error.has(.someReason))")
      }
    }
  }

  /// One reason, one code: Chime's own errors are made from a catalogued reason, which brings
  /// its code (`ChimeError(.storeFull, ...)`), never a code paired with some reason's name. The
  /// code-and-name initializer is for errors a peer sent, which the wire decoder rebuilds.
  @Test func everyReasonIsSentWithItsOwnCode() throws {
    let pairing = /ChimeError\(\s*\.[a-zA-Z]+\s*,\s*reason:/
    for file in Self.sources where file != "Sources/ChimeCore/Errors/ChimeError.swift" {
      let text = try RepositoryFiles.text(file)
      for match in text.matches(of: pairing) {
        let line = text[..<match.range.lowerBound].reduce(into: 1) { count, c in if c == "\n" { count += 1 } }
        Issue.record("\(file):\(line): a status code paired with a reason by hand; add a reason to the catalogue with that code")
      }
    }
  }

}

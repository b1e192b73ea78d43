import ChimeCore
import Foundation
import Testing

/// The reason catalogue is complete, consistent, and agrees with the README's "Reasons" table.
@Suite struct ReasonCatalogueTests {
  @Test func namesAreUniqueUpperSnakeCase() {
    let names = Reason.all.map(\.name)
    #expect(Set(names).count == names.count)
    for name in names {
      #expect(name.wholeMatch(of: /[A-Z][A-Z0-9]*(_[A-Z0-9]+)*/) != nil, "\(name)")
    }
  }

  /// `all` is written by hand: every constant declared in the catalogue's files must be in it.
  @Test func allHoldsEveryDeclaredReason() throws {
    let source = try ["Reason", "Reason+Transport", "Reason+Requests", "Reason+Service"]
      .map { try RepositoryFiles.text("Sources/ChimeCore/Errors/\($0).swift") }.joined(separator: "\n")
    let declared = source.matches(of: /static let `?\w+`? = Reason\("([A-Z0-9_]+)"/).map { String($0.output.1) }
    #expect(declared.count == Reason.all.count)
    #expect(Set(declared) == Set(Reason.all.map(\.name)))
  }

  @Test func anErrorForAReasonCarriesItsCode() {
    for reason in Reason.all {
      let error = ChimeError(reason, "m", field: "f")
      #expect(error.code == reason.code && error.reason == reason.name && error.has(reason))
      #expect(Reason(named: reason.name) == reason)
    }
    #expect(Reason(named: "NOT_A_REASON_WE_KNOW") == nil)
    #expect(ChimeError.internal().has(.internal))
  }

  /// The rows of the README's "Reasons" table: reason and status code name.
  private func readmeRows() throws -> [(reason: String, code: String)] {
    let readme = try RepositoryFiles.text("README.md")
    guard let start = readme.range(of: "\n## Reasons\n") else {
      Issue.record("README.md has no \"## Reasons\" section")
      return []
    }
    let section = readme[start.upperBound...]
    var rows: [(String, String)] = []
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") { break }
      guard let row = line.wholeMatch(of: /\| `([A-Z0-9_]+)` \| ([A-Z_]+) \| .+ \|/) else { continue }
      rows.append((String(row.output.1), String(row.output.2)))
    }
    return rows
  }

  @Test func readmeListsEveryReasonWithItsCodeAndNoOther() throws {
    let rows = try readmeRows()
    let documented = Dictionary(rows.map { ($0.reason, $0.code) }, uniquingKeysWith: { first, _ in first })
    #expect(documented.count == rows.count, "a reason is listed twice in the README")
    for reason in Reason.all {
      guard let code = documented[reason.name] else {
        Issue.record("README.md's Reasons table lacks \(reason.name) (\(reason.code))")
        continue
      }
      #expect(code == "\(reason.code)", "README.md gives \(reason.name) the status \(code); the catalogue says \(reason.code)")
    }
    let known = Set(Reason.all.map(\.name))
    for row in rows where !known.contains(row.reason) {
      Issue.record("README.md lists \(row.reason), which is not in the catalogue (Sources/ChimeCore/Errors/Reason*.swift)")
    }
  }
}

import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// A removal names at most 1000 identifiers, each a valid identifier; the daemon holds both
/// rules whatever a client sends, and a refused removal removes nothing.
@Suite(.testTimeLimit) struct CallLimitTests {
  static let most = Limits.identifiersPerCallMax

  func names(_ count: Int, keeping kept: [String]) -> [String] {
    kept + (kept.count..<count).map { "absent-\($0)" }
  }

  @Test(arguments: Transport.allCases) func aRemovalOfTheMostIdentifiersIsAcceptedAndOneMoreRefused(over transport: Transport) async throws {
    #expect(Self.most == 1000)
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    for id in ["a", "b", "c"] { _ = try await app.add(.tea(id, in: 60)) }
    for id in ["x", "y"] { _ = try await app.add(.tea(id, in: nil)) }

    let tooMany = await caughtError { _ = try await app.removePending(names(Self.most + 1, keeping: ["a"])) }
    #expect(tooMany?.reason == "TOO_MANY_IDENTIFIERS" && tooMany?.field == "identifiers" && tooMany?.code == .invalidArgument,
            "\(String(describing: tooMany))")
    #expect(try await app.allPending().count == 3, "a refused removal removes nothing")
    let removed = try await app.removePending(names(Self.most, keeping: ["a", "b"]))
    #expect(Set(removed) == ["a", "b"])
    #expect(try await app.allPending().map(\.request.identifier) == ["c"])

    let tooManyDelivered = await caughtError { _ = try await app.removeDelivered(names(Self.most + 1, keeping: ["x"])) }
    #expect(tooManyDelivered?.reason == "TOO_MANY_IDENTIFIERS", "\(String(describing: tooManyDelivered))")
    #expect(try await app.allDelivered().count == 2)
    #expect(try await app.removeDelivered(names(Self.most, keeping: ["x"])) == ["x"])
    #expect(try await app.allDelivered().map(\.request.identifier) == ["y"])
  }

  @Test(arguments: Transport.allCases) func aRemovalNamingAnIdentifierWithAControlCharacterIsRefused(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    _ = try await app.add(.tea("a", in: 60))
    for bad in ["a\u{7F}", "\u{85}"] {
      let error = await caughtError { _ = try await app.removePending(["a", bad]) }
      #expect(error?.reason == "INVALID_IDENTIFIER" && error?.field == "identifiers[1]", "\(bad.debugDescription): \(String(describing: error))")
    }
    #expect(try await app.allPending().count == 1)
  }
}

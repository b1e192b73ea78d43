import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

@Suite struct PagingTests {
  /// 25 requests with many equal fire instants, so ties are broken by identifier.
  private func seed(_ store: StoreFixture, app: String = "app") throws -> [PendingRequest] {
    var expected: [PendingRequest] = []
    for i in 0..<25 {
      expected.append(try store.add(app, Fixtures.request(String(format: "r%02d", (i * 7) % 25), after: Double(60 * (1 + i % 4)))))
    }
    return expected.sorted { ($0.nextFire, $0.request.identifier) < ($1.nextFire, $1.request.identifier) }
  }

  @Test func pendingPagesAreStableAndComplete() throws {
    let store = try StoreFixture()
    let expected = try seed(store)
    _ = try seed(store, app: "other")

    var seen: [PendingRequest] = []
    var token = ""
    var pages = 0
    repeat {
      let page = try store.db.pendingPage(app: "app", page: PageRequest(pageSize: 10, pageToken: token))
      #expect(page.items.count == (pages < 2 ? 10 : 5))
      seen += page.items
      token = page.nextPageToken
      pages += 1
      if pages == 1 {
        // Changes behind the position do not shift the next page.
        try store.add("app", Fixtures.request("a-early", after: 1))
      }
    } while !token.isEmpty && pages < 10
    #expect(pages == 3)
    #expect(seen == expected)
    #expect(Set(seen.map(\.request.identifier)).count == 25)
  }

  @Test func exactMultipleOfThePageSizeEndsWithoutAnEmptyPage() throws {
    let store = try StoreFixture()
    for i in 0..<4 { try store.add("app", Fixtures.request("r\(i)")) }
    let first = try store.db.pendingPage(app: "app", page: PageRequest(pageSize: 2))
    let second = try store.db.pendingPage(app: "app", page: PageRequest(pageSize: 2, pageToken: first.nextPageToken))
    #expect(first.items.map(\.request.identifier) == ["r0", "r1"])
    #expect(second.items.map(\.request.identifier) == ["r2", "r3"])
    #expect(second.nextPageToken.isEmpty)
    #expect(try store.db.pendingPage(app: "app", page: PageRequest()).items.count == 4)
    #expect(try store.db.pendingPage(app: "nobody", page: PageRequest()) == Page(items: []))
  }

  @Test func badTokensAndSizesAreInvalidArguments() throws {
    let store = try StoreFixture()
    for i in 0..<3 { try store.add("app", Fixtures.request("r\(i)")) }
    for i in 0..<3 { try store.deliverNow("app", "d\(i)", at: t0) }
    let pendingToken = try store.db.pendingPage(app: "app", page: PageRequest(pageSize: 1)).nextPageToken
    let deliveredToken = try store.db.deliveredPage(app: "app", page: PageRequest(pageSize: 1)).nextPageToken
    #expect(!pendingToken.isEmpty && !deliveredToken.isEmpty)

    let bad = ["garbage!", "AAAA", "=", String(repeating: "A", count: 5000), deliveredToken, "UA", pendingToken + "\u{0}"]
    for token in bad {
      let error = #expect(throws: ChimeError.self) { try store.db.pendingPage(app: "app", page: PageRequest(pageToken: token)) }
      #expect(error?.code == .invalidArgument)
      #expect(error?.reason == "INVALID_PAGE_TOKEN")
      #expect(error?.field == "page_token")
    }
    let error = #expect(throws: ChimeError.self) { try store.db.deliveredPage(app: "app", page: PageRequest(pageToken: pendingToken)) }
    #expect(error?.reason == "INVALID_PAGE_TOKEN")
    for size in [-1, Limits.pageSizeMax + 1] {
      let error = #expect(throws: ChimeError.self) { try store.db.pendingPage(app: "app", page: PageRequest(pageSize: size)) }
      #expect(error?.reason == "INVALID_PAGE_SIZE")
    }
  }

  @Test func tokenRoundTripsAnyInstantAndIdentifier() throws {
    for (instant, identifier) in [(Int64.min, "x"), (-1, "ünï/cødé+=="), (0, String(repeating: "z", count: 256)), (Int64.max, "a b")] {
      let token = PageToken(kind: .pending, instant: instant, identifier: identifier)
      #expect(try PageToken.decode(token.encoded, as: .pending) == token)
      #expect(token.encoded.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
  }

  @Test func deliveredPagesAreNewestFirstWithTiesByIdentifier() throws {
    let store = try StoreFixture()
    var expected: [(Instant, String)] = []
    for i in 0..<15 {
      let at = t0.adding(seconds: Double(i / 3))  // three notifications per instant
      let identifier = "d\(14 - i)"
      try store.deliverNow("app", identifier, at: at)
      try store.deliverNow("other", identifier, at: at)
      expected.append((at, identifier))
    }
    expected.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }

    var seen: [DeliveredNotification] = []
    var token = ""
    var pages = 0
    repeat {
      let page = try store.db.deliveredPage(app: "app", page: PageRequest(pageSize: 4, pageToken: token))
      seen += page.items
      token = page.nextPageToken
      pages += 1
    } while !token.isEmpty && pages < 10
    #expect(pages == 4)
    #expect(seen.map(\.request.identifier) == expected.map(\.1))
    #expect(seen.map(\.delivered) == expected.map(\.0))
  }
}

import ChimeCore
import ChimeTestSupport
import Testing

@testable import ChimeDBus
@testable import ChimeServer

/// A one-off D-Bus caller (gdbus, busctl: one connection per call) names its app with `app-id`
/// in the options of the calls that take options; the key is taken out before the options are
/// read, so it never reaches the option decoders, and every other key stays.
@Suite(.testTimeLimit) struct DBusPerCallAppTests {
  /// A request whose message is never touched (`takingAppID` reads only the arguments).
  func request(_ member: String, _ arguments: [BusValue]) -> DBusRequest {
    DBusRequest(message: OpaquePointer(bitPattern: 0x1).unsafelyUnwrapped, sender: ":1.7", member: member, arguments: arguments)
  }

  func keys(_ value: BusValue) -> [String] {
    guard case .array(_, let entries) = value else { return [] }
    return entries.compactMap { entry in
      guard case .entry(.string(let key, _), _) = entry else { return nil }
      return key
    }
  }

  @Test func theAppIDIsTakenOutOfTheOptionsOfEachMethodThatHasThem() throws {
    let options = BusValue.vardict([("app-id", .string("org.example.tea")), ("limit", .uint32(5))])
    let cases: [(String, [BusValue], Int)] = [
      ("GetPending", [options], 0), ("GetDelivered", [options], 0),
      ("Add", [.string("tea"), .vardict([]), .vardict([]), options], 3),
      ("NextTriggerDates", [.vardict([]), options], 1),
      ("Respond", [.string("tea"), .string(""), options], 2),
      ("Push", [.string("{}"), options], 1),
    ]
    for (member, arguments, index) in cases {
      let (stripped, app) = try DBusFace.takingAppID(request(member, arguments))
      #expect(app == "org.example.tea", "\(member)")
      #expect(keys(stripped.arguments[index]) == ["limit"], "\(member)")
      #expect(stripped.arguments.count == arguments.count)
    }
  }

  @Test func callsWithoutOptionsOrWithoutTheKeyAreLeftAlone() throws {
    let (removed, none) = try DBusFace.takingAppID(request("RemovePending", [.strings(["tea"])]))
    #expect(none == nil)
    #expect(removed.arguments.count == 1)
    let (listed, absent) = try DBusFace.takingAppID(request("GetPending", [.vardict([("limit", .uint32(5))])]))
    #expect(absent == nil)
    #expect(keys(listed.arguments[0]) == ["limit"])
  }

  @Test func anAppIDThatIsNotAStringOrGivenTwiceIsRefused() {
    #expect(throws: ChimeError.self) {
      try DBusFace.takingAppID(request("GetPending", [.vardict([("app-id", .int32(7))])]))
    }
    let twice = BusValue.array(element: "{sv}", [
      .entry(.string("app-id"), .variant(.string("a.b"))), .entry(.string("app-id"), .variant(.string("c.d"))),
    ])
    #expect(throws: ChimeError.self) {
      try DBusFace.takingAppID(request("GetPending", [twice]))
    }
  }
}

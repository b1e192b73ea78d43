import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

@testable import ChimeDBus
@testable import ChimeServer

/// Which app a D-Bus call acts as. A connection that registered as one app and then names
/// another in a call's `app-id` is refused with APP_ID_MISMATCH, for every method that takes
/// options: otherwise any host connection could read and change any other app's requests by
/// naming it. The methods are those of the exported interface
/// (deploy/dbus/io.github.chime.Chime1.xml) that take an `a{sv}` in-argument.
@Suite(.testTimeLimit) struct DBusCallingAppTests {
  static let registered = "org.example.tea"
  static let other = "org.example.coffee"

  /// Each method whose options carry `app-id`, and where that dictionary is among its in-arguments.
  static let methods: [(member: String, options: Int)] = [
    ("Add", 3), ("GetPending", 0), ("GetDelivered", 0), ("NextTriggerDates", 1), ("Respond", 2), ("Push", 1),
    ("Snooze", 2), ("GetDoNotDisturb", 0), ("SetDoNotDisturb", 0), ("AddCalendar", 2), ("ListCalendars", 0),
    ("RemoveCalendar", 1), ("SyncCalendars", 1), ("ListApps", 0), ("SetAppSettings", 2),
  ]

  /// The in-argument types of each method of the interface file, in order.
  static func interfaceMethods() throws -> [String: [String]] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy/dbus/io.github.chime.Chime1.xml")
    let xml = try String(contentsOf: file, encoding: .utf8)
    var methods: [String: [String]] = [:]
    var current: String?
    for line in xml.split(separator: "\n") {
      if let name = Self.attribute("name", in: line), line.contains("<method ") {
        current = name
        methods[name] = []
      } else if line.contains("</method>") {
        current = nil
      } else if let current, line.contains("<arg "), line.contains("direction=\"in\""), let type = Self.attribute("type", in: line) {
        methods[current, default: []].append(type)
      }
    }
    return methods
  }

  static func attribute(_ name: String, in line: Substring) -> String? {
    guard let start = line.range(of: name + "=\"") else { return nil }
    let rest = line[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  /// A call of `member` with `options` at its options position and empty values elsewhere.
  func request(_ member: String, optionsAt index: Int, types: [String], options: BusValue) -> DBusRequest {
    var arguments: [BusValue] = types.map { type in
      switch type {
      case "s": .string("")
      case "u": .uint32(60)
      case "as": .strings([])
      default: .vardict([])
      }
    }
    arguments[index] = options
    return DBusRequest(message: OpaquePointer(bitPattern: 0x1).unsafelyUnwrapped, sender: ":1.7", member: member, arguments: arguments)
  }

  func refusal(_ body: () throws -> Void) -> ChimeError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ChimeError
    }
  }

  @Test func theListCoversEveryMethodWithOptionsInTheInterface() throws {
    let interface = try Self.interfaceMethods()
    let withDictionary = Set(interface.filter { $0.value.contains("a{sv}") }.keys).subtracting(["Register"])
    #expect(Set(Self.methods.map(\.member)) == withDictionary)
    for (member, index) in Self.methods {
      #expect(interface[member]?[index] == "a{sv}", "\(member)'s options are in-argument \(index)")
    }
  }

  @Test func aRegisteredConnectionNamingAnotherAppIsRefused() throws {
    let interface = try Self.interfaceMethods()
    for (member, index) in Self.methods {
      let call = request(member, optionsAt: index, types: interface[member] ?? [],
                         options: .vardict([("app-id", .string(Self.other))]))
      let error = refusal { _ = try DBusFace.callingApp(call, registered: Self.registered) }
      #expect(error?.reason == "APP_ID_MISMATCH", "\(member): \(String(describing: error))")
      #expect(error?.field == "options.app-id", "\(member)")
      #expect(error?.code == .permissionDenied, "\(member)")
    }
  }

  @Test func aRegisteredConnectionMayNameItsOwnApp() throws {
    let interface = try Self.interfaceMethods()
    for (member, index) in Self.methods {
      let call = request(member, optionsAt: index, types: interface[member] ?? [],
                         options: .vardict([("app-id", .string(Self.registered))]))
      let (stripped, app) = try DBusFace.callingApp(call, registered: Self.registered)
      #expect(app == Self.registered, "\(member)")
      #expect(stripped.arguments[index] == .vardict([]), "\(member): app-id is taken out of the options")
    }
  }

  @Test func aRegisteredConnectionActsAsItsAppWithoutAppID() throws {
    let interface = try Self.interfaceMethods()
    for (member, index) in Self.methods {
      let call = request(member, optionsAt: index, types: interface[member] ?? [], options: .vardict([]))
      #expect(try DBusFace.callingApp(call, registered: Self.registered).app == Self.registered, "\(member)")
    }
    // The calls without options act as the registered app only.
    let removal = DBusRequest(message: OpaquePointer(bitPattern: 0x1).unsafelyUnwrapped, sender: ":1.7", member: "RemovePending",
                              arguments: [.strings(["tea"])])
    #expect(try DBusFace.callingApp(removal, registered: Self.registered).app == Self.registered)
    #expect(refusal { _ = try DBusFace.callingApp(removal, registered: nil) }?.reason == "APP_NOT_REGISTERED")
  }

  @Test func anUnregisteredConnectionActsAsTheAppItNamesPerCall() throws {
    let interface = try Self.interfaceMethods()
    for (member, index) in Self.methods {
      let call = request(member, optionsAt: index, types: interface[member] ?? [],
                         options: .vardict([("app-id", .string(Self.other))]))
      #expect(try DBusFace.callingApp(call, registered: nil).app == Self.other, "\(member)")
    }
  }

  @Test func aConnectionThatNamesNoAppIsNotRegistered() throws {
    let interface = try Self.interfaceMethods()
    for (member, index) in Self.methods {
      let call = request(member, optionsAt: index, types: interface[member] ?? [], options: .vardict([]))
      let error = refusal { _ = try DBusFace.callingApp(call, registered: nil) }
      #expect(error?.reason == "APP_NOT_REGISTERED", "\(member): \(String(describing: error))")
    }
  }

  @Test func aPerCallAppIDThatIsNotReverseDNSIsRefused() throws {
    let call = request("GetPending", optionsAt: 0, types: ["a{sv}"], options: .vardict([("app-id", .string("not an id"))]))
    #expect(refusal { _ = try DBusFace.callingApp(call, registered: nil) }?.reason == "INVALID_APP_ID")
    #expect(refusal { _ = try DBusFace.callingApp(call, registered: Self.registered) }?.reason == "INVALID_APP_ID")
  }
}

// The `dbus` target of chime-fuzz-wire: arbitrary a{sv} trees through the D-Bus API's argument
// decoder (Sources/ChimeDBus/DBusArguments.swift and BusDictionary.swift, compiled into
// this binary with the records encoder and BusValue). The input bytes build the trees (byte 0
// picks the call); known keys are drawn often so the decoder's branches are reached.
// Checked: each call answers a value or a ChimeError with a reason whose D-Bus error name is
// valid; an accepted request or category list, encoded as a listing answers it, decodes to the
// same value.

import ChimeCore
import ChimeWire

private let knownKeys = [
  "title", "subtitle", "body", "badge", "sound", "critical", "volume", "category", "thread", "interruption-level",
  "relevance", "user-info", "target-content", "summary-argument", "attachments", "path", "identifier", "type-hint",
  "clip", "thumbnail-time", "thumbnail-hidden", "interval", "repeats", "calendar", "year", "month", "day", "hour",
  "minute", "second", "weekday", "weekday-ordinal", "week-of-month", "week-of-year", "year-for-week-of-year",
  "time-zone", "dst-gap", "dst-overlap", "missed-fire", "max-lateness", "count", "after", "limit", "actions",
  "options", "text-input", "button-title", "placeholder", "intent-identifiers", "hidden-previews-body-placeholder",
  "summary-format", "user-text",
]
private let knownWords = [
  "default", "Europe/Paris", "UTC", "skip", "next-valid", "both", "first", "deliver", "deliver-if-late",
  "time-sensitive", "passive", "critical", "foreground", "destructive", "custom-dismiss-action", "/tmp/x.png", "",
]

/// Reads the fuzzer's bytes as a tree builder; past the end every read is 0.
private struct TreeReader {
  let bytes: [UInt8]
  var at = 0
  var budget = 2000

  mutating func byte() -> UInt8 {
    defer { at += 1 }
    return at < bytes.count ? bytes[at] : 0
  }

  mutating func u64() -> UInt64 {
    (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
  }

  mutating func text() -> String {
    let n = Int(byte() % 12)
    if n == 0 { return knownWords[Int(byte()) % knownWords.count] }
    return String(decoding: (0..<n).map { _ in byte() }, as: UTF8.self)
  }

  mutating func key() -> String {
    let b = byte()
    return b < 200 ? knownKeys[Int(b) % knownKeys.count] : text()
  }

  mutating func vardict(_ depth: Int) -> BusValue {
    let n = Int(byte() % 6)
    return .array(element: "{sv}", (0..<n).map { _ in .entry(.string(key(), type: "s"), .variant(tree(depth + 1))) })
  }

  mutating func tree(_ depth: Int) -> BusValue {
    budget -= 1
    guard depth < 6, budget > 0 else { return .boolean(false) }
    switch byte() % 12 {
    case 0: return .boolean(byte() & 1 == 1)
    case 1: return .signed(Int64(bitPattern: u64()) >> Int64(byte() % 64), type: ["n", "i", "x"][Int(byte()) % 3])
    case 2: return .unsigned(u64() >> UInt64(byte() % 64), type: ["y", "q", "u", "t"][Int(byte()) % 4])
    case 3: return .double(Double(bitPattern: u64()))
    case 4, 5: return .string(text(), type: "s")
    case 6: return vardict(depth)
    case 7: return .array(element: "a{sv}", (0..<Int(byte() % 4)).map { _ in vardict(depth + 1) })
    case 8: return .array(element: "s", (0..<Int(byte() % 4)).map { _ in .string(text(), type: "s") })
    case 9: return .structure((0..<Int(byte() % 5)).map { _ in tree(depth + 1) })
    case 10: return .variant(tree(depth + 1))
    default: return .array(element: "i", (0..<Int(byte() % 3)).map { _ in .signed(Int64(byte()), type: "i") })
    }
  }
}

/// Mostly an a{sv} (what the calls take), sometimes anything.
private func argument(_ r: inout TreeReader) -> BusValue {
  r.byte() < 230 ? r.vardict(0) : r.tree(0)
}

private func checkError(_ error: ChimeError) {
  require(!error.reason.isEmpty, "an error without a reason: \(error)")
  let name = DBusNames.errorName(error)
  require(name.utf8.count <= 255, "error name too long: \(name)")
  for element in name.split(separator: ".", omittingEmptySubsequences: false) {
    require(!element.isEmpty && !element.first!.isNumber
              && element.unicodeScalars.allSatisfy { ($0 >= "0" && $0 <= "9") || ($0 >= "A" && $0 <= "Z") || ($0 >= "a" && $0 <= "z") || $0 == "_" },
            "invalid D-Bus error name \(name)")
  }
}

private func hasNaN(_ value: BusValue) -> Bool {
  switch value {
  case .double(let d): d.isNaN
  case .array(_, let items), .structure(let items): items.contains(where: hasNaN)
  case .entry(let k, let v): hasNaN(k) || hasNaN(v)
  case .variant(let v): hasNaN(v)
  default: false
  }
}

func fuzzDBusArguments(_ bytes: [UInt8]) {
  var r = TreeReader(bytes: bytes)
  let pick = r.byte() % 8
  do throws(ChimeError) {
    switch pick {
    case 0:
      let content = argument(&r), trigger = argument(&r), options = argument(&r)
      var request = try DBusArguments.request(identifier: r.text(), content: content, trigger: trigger, options: options)
      request.missedFire = .deliver
      let pairs = DBusRecords.request(request)
      let triggerKeys: Set<String> = ["interval", "repeats", "calendar"]
      let encodedContent = BusValue.vardict(pairs.filter { $0.0 != "identifier" && !triggerKeys.contains($0.0) })
      let encodedTrigger = BusValue.vardict(pairs.filter { triggerKeys.contains($0.0) })
      guard !hasNaN(encodedContent), !hasNaN(encodedTrigger) else { return }
      let again = try DBusArguments.request(identifier: request.identifier, content: encodedContent, trigger: encodedTrigger,
                                            options: .vardict([]))
      require(again == request, "a request does not read back as itself: \(request) -> \(again)")
    case 1:
      _ = try DBusArguments.trigger(argument(&r))
    case 2:
      let value = r.byte() < 200 ? .array(element: "a{sv}", (0..<Int(r.byte() % 4)).map { _ in r.vardict(1) }) : r.tree(0)
      let categories = try DBusArguments.categories(value)
      let encoded = BusValue.vardicts(categories.map(DBusRecords.category))
      guard !hasNaN(encoded) else { return }
      let again = try DBusArguments.categories(encoded)
      require(again == categories, "categories do not read back: \(categories) -> \(again)")
    case 3:
      _ = try DBusArguments.nextTriggerDates(trigger: argument(&r), options: argument(&r))
    case 4:
      _ = try DBusArguments.listLimit(argument(&r))
    case 5:
      _ = try DBusArguments.response(notification: r.text(), action: r.text(), options: argument(&r))
    case 6:
      _ = try DBusArguments.push(payload: r.text(), options: argument(&r))
    default:
      _ = try DBusArguments.authorization(DBusArguments.strings(r.tree(0), field: "options"))
    }
  } catch {
    checkError(error)
  }
}

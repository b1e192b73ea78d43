// libFuzzer entry for Chime's decoders of bytes and text it did not make.
//
// Built by Fuzz/run.sh with `swiftc -sanitize=fuzzer,address` together with every source of
// Sources/ChimeCore as one module, so internal parsers can be driven one at a time.
// CHIME_FUZZ_TARGET picks one: the media and sound inspectors (png jpeg gif mp3 isobmff riff
// aiff mpegps caf sound media options) and the text readers (push: an APNs payload; calendar:
// `--calendar` specs; duration; instant: ISO 8601 with or without an offset; userinfo: the
// user-info JSON check) and the TZif reader (tzif: a zone file and its footer rule). The
// binary also holds chimed's TOML reader and command line (Sources/ChimeConfig/TOML and the
// ChimeConfig files that import nothing): toml (a chimed.toml), flags (chimed's arguments).
// Any trap (overflow, out-of-bounds index, force unwrap) or sanitizer report is a crash.

#if canImport(Glibc)
import Glibc
#endif
import Foundation

enum FuzzTarget: String, CaseIterable {
  case png, jpeg, gif, mp3, isobmff, riff, aiff, mpegps, caf, sound, media, options
  case push, calendar, duration, instant, userinfo, tzif
  case toml, flags
}

let selectedTarget: FuzzTarget = {
  if let raw = getenv("CHIME_FUZZ_TARGET"), let target = FuzzTarget(rawValue: String(cString: raw)) {
    return target
  }
  let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
  print("CHIME_FUZZ_TARGET must be one of: \(names)")
  exit(2)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func chimeFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  fuzz(selectedTarget, bytes)
  return 0
}

private func reader(_ bytes: [UInt8]) -> ByteReader { ByteReader(MemoryByteSource(bytes)) }

func fuzz(_ target: FuzzTarget, _ bytes: [UInt8]) {
  switch target {
  case .png: check(try? PNGParser.parse(reader(bytes)), bytes)
  case .jpeg: check(try? JPEGParser.parse(reader(bytes)), bytes)
  case .gif: check(try? GIFParser.parse(reader(bytes)), bytes)
  case .mp3:
    check(try? MP3Parser.parse(reader(bytes)), bytes)
    _ = try? Sniffer.family(reader(bytes))
  case .isobmff: check(try? ISOBMFFParser.parse(reader(bytes)), bytes)
  case .riff:
    if let info = try? WAVParser.parse(reader(bytes)) {
      _ = try? WAVParser.frames(info)
      _ = try? WAVParser.duration(info)
    }
    check(try? AVIParser.parse(reader(bytes)), bytes)
    sound(bytes)
  case .aiff:
    check(try? AIFFParser.facts(reader(bytes)), bytes)
    sound(bytes)
  case .mpegps: check(try? MPEGPSParser.parse(reader(bytes)), bytes)
  case .caf:
    if let info = try? CAFParser.parse(reader(bytes)) { _ = try? info.frames() }
    sound(bytes)
  case .sound: sound(bytes)
  case .media: media(bytes)
  case .options: options(bytes)
  case .push: push(bytes)
  case .tzif: tzif(bytes)
  case .toml: toml(bytes)
  case .flags: flags(bytes)
  case .calendar, .duration, .instant, .userinfo: text(target, bytes)
  }
}

/// An accepted payload is within its limit and holds content; a refusal names a field.
private func push(_ bytes: [UInt8]) {
  do throws(ChimeError) {
    _ = try PushPayload.parse(bytes, maxBytes: 4096)
    precondition(bytes.count <= 4096, "a payload over the limit was accepted")
  } catch {
    precondition(!error.reason.isEmpty, "a refusal without a reason")
  }
}

private func text(_ target: FuzzTarget, _ bytes: [UInt8]) {
  let string = String(decoding: bytes, as: UTF8.self)
  switch target {
  case .calendar:
    if let components = try? CalendarSpec.parse(string) {
      // What is accepted prints back as text that reads the same.
      let again = try? CalendarSpec.parse(CalendarSpec.format(components), timeZone: components.timeZone)
      precondition(again == components, "calendar spec does not round-trip")
    }
  case .duration:
    if let seconds = DurationText.parse(string) {
      precondition(seconds.isFinite, "a duration that is not finite")
      _ = DurationText.format(seconds)
    }
  case .instant:
    if let parsed = InstantText.parse(string, zone: Zone.named("Europe/Berlin") ?? .utc) {
      precondition(parsed.fraction >= 0 && parsed.fraction <= 1, "a fraction of a second that is not one")
      _ = parsed.instant.description
    }
  case .userinfo:
    _ = JSONDocument.parseOrExplain(bytes, maxDepth: 32)
  default:
    break
  }
}

/// Invariants of any accepted file.
private func check(_ facts: MediaFacts?, _ bytes: [UInt8]) {
  guard let facts else { return }
  precondition(facts.bytes == UInt64(bytes.count), "facts.bytes disagrees with the input size")
  precondition(facts.mediaClass == facts.type.mediaClass, "class disagrees with type")
  precondition(!facts.durationSeconds.isNaN, "NaN duration")
  _ = facts.attachmentInfo(storePath: "x")
}

private func sound(_ bytes: [UInt8]) {
  let verdict = SoundRules.resolve(MemoryByteSource(bytes))
  precondition(verdict.plays != .named || verdict.reason.isEmpty, "named sound with a reason")
  if let facts = try? SoundInspector.inspect(MemoryByteSource(bytes)) {
    precondition(facts.sampleRate.isFinite && facts.sampleRate > 0, "bad sample rate accepted")
    precondition(facts.channels > 0, "zero channels accepted")
  }
}

private func media(_ bytes: [UInt8]) {
  // The first byte picks a type hint (or none); the rest is the file.
  guard let first = bytes.first else {
    _ = try? MediaInspector.inspect(MemoryByteSource(bytes))
    return
  }
  let hints = [""] + MediaType.allCases.map(\.uti) + ["public.aifc-audio", "bogus"]
  let hint = hints[Int(first) % hints.count]
  let file = Array(bytes.dropFirst())
  if let facts = try? MediaInspector.inspect(MemoryByteSource(file), typeHint: hint) {
    check(facts, file)
    precondition(Int(facts.bytes) <= facts.mediaClass.byteLimit, "over the class limit")
  }
}

private func options(_ bytes: [UInt8]) {
  // Six doubles and a few bytes: clip rect, time, type, frames, duration.
  guard bytes.count >= 52 else { return }
  func double(_ i: Int) -> Double {
    var bits: UInt64 = 0
    for k in 0..<8 { bits = bits << 8 | UInt64(bytes[i * 8 + k]) }
    return Double(bitPattern: bits)
  }
  var o = AttachmentOptions()
  if bytes[48] & 1 != 0 { o.thumbnailClippingRect = ClipRect(x: double(0), y: double(1), width: double(2), height: double(3)) }
  if bytes[48] & 2 != 0 { o.thumbnailTime = double(4) }
  let type = MediaType.allCases[Int(bytes[49]) % MediaType.allCases.count]
  let frames = UInt32(bytes[50]) << 8 | UInt32(bytes[51])
  let facts = MediaFacts(type: type, bytes: 1, width: 1, height: 1, durationSeconds: double(5), frameCount: frames)
  _ = try? AttachmentOptionsValidator.validate(o, facts: facts, field: "f")
  thumbnail(o, width: Int(bytes[50]) + 1, height: Int(bytes[51]) + 1, frames: Int(frames), duration: double(5))
}

/// The thumbnail arithmetic on any options, valid or not: the crop stays inside the image and
/// is at least a pixel, the fit stays inside the box, the frame and instant inside the file.
private func thumbnail(_ o: AttachmentOptions, width: Int, height: Int, frames: Int, duration: Double) {
  let crop = ThumbnailGeometry.crop(o.thumbnailClippingRect, width: width, height: height)
  precondition(crop.x >= 0 && crop.y >= 0 && crop.width >= 1 && crop.height >= 1, "empty or negative crop")
  precondition(crop.x + crop.width <= width && crop.y + crop.height <= height, "crop leaves the image")
  let box = ThumbnailBox(width: max(1, width / 2), height: max(1, height * 3))
  let fit = ThumbnailGeometry.fit(width: crop.width, height: crop.height, in: box)
  precondition(fit.width >= 1 && fit.height >= 1 && fit.width <= box.width && fit.height <= box.height, "fit leaves the box")
  let index = ThumbnailGeometry.frameIndex(time: o.thumbnailTime, frameCount: frames)
  precondition(index >= 0 && (frames <= 1 ? index == 0 : index < frames), "frame index outside the file")
  let seconds = ThumbnailGeometry.movieTime(time: o.thumbnailTime, duration: duration)
  precondition(seconds.isFinite && seconds >= 0, "instant not a time")
  if duration.isFinite && duration > 0 { precondition(seconds <= duration, "instant after the end") }
}

/// A TZif file: refused, or a table whose offsets stay within tzdata's bounds wherever asked.
func tzif(_ bytes: [UInt8]) {
  guard let data = try? TZif.parse(bytes) else { return }
  precondition(data.offsets.count == data.transitions.count + 1, "offsets and transitions out of step")
  let table = ZoneTable(identifier: "Fuzz/Zone", data: data)
  for t in [Int64.min / 4, -2_208_988_801, 0, 1_800_000_000, 16_725_225_600, 200_000_000_000] {
    precondition(abs(table.offset(at: t)) <= TZif.offsetLimit, "an offset out of range")
    _ = table.resolve(wall: t)
    _ = table.earliestWall(after: t)
  }
}

/// A TOML document: read, or refused at a place inside it with a reason; what is read holds
/// each key once, on a line of the document.
func toml(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let lines = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
  func check(_ table: TOMLTable) {
    precondition(table.keys.count == table.entries.count && Set(table.keys).count == table.keys.count, "keys and entries out of step")
    for key in table.keys {
      let entry = table.entries[key]!
      precondition((1...lines).contains(entry.line), "a key on a line outside the document")
      check(entry.value)
    }
  }
  func check(_ value: TOMLValue) {
    switch value {
    case .table(let inner): check(inner)
    case .array(let items): items.forEach(check)
    case .integer, .float, .boolean, .string: break
    case .offsetDateTime(let date, let time, let offset):
      check(date)
      check(time)
      precondition(abs(offset) < 24 * 60, "offset out of range")
    case .localDateTime(let date, let time):
      check(date)
      check(time)
    case .localDate(let date): check(date)
    case .localTime(let time): check(time)
    }
  }
  func check(_ date: TOMLDate) {
    precondition((1...12).contains(date.month) && (1...31).contains(date.day) && (0...9999).contains(date.year), "date out of range")
  }
  func check(_ time: TOMLTime) {
    precondition(time.hour < 24 && time.minute < 60 && time.second < 60 && (0..<1_000_000_000).contains(time.nanosecond), "time out of range")
  }
  do throws(TOMLError) {
    check(try TOMLParser.parse(text))
  } catch {
    precondition((1...lines).contains(error.line) && error.column >= 1 && !error.message.isEmpty, "an error without a place or reason")
  }
}

/// chimed's command line, the arguments split at NUL bytes: a command, or a usage error with
/// a message.
func flags(_ bytes: [UInt8]) {
  let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
  do throws(UsageError) {
    if case .run(let parsed) = try ChimedCommandLine.parse(arguments) {
      precondition(parsed.settings.keys.allSatisfy { ConfigKey.named($0) != nil }, "a setting that is no key")
    }
  } catch {
    precondition(error.text.hasPrefix("Error: ") && !error.message.isEmpty, "a usage error without a message")
  }
}

// libFuzzer entry for the bytes chimed reads from clients and from its own database: the frame
// decoder, every request decode of the codec, and the stored records.
//
// Built by Fuzz/run.sh as a second binary (chime-fuzz-wire): ChimeCore, ChimeRecords and ChimeWire are compiled
// as their own modules with `swiftc -sanitize=fuzzer,address`, the generated protobuf-c code with
// `clang -fsanitize=fuzzer-no-link,address`, and this file is linked with them, with
// Sources/ChimeStore/Internal/PageToken.swift (page tokens come back from clients) and the wire
// tests' FullValues.swift (seed values). CHIME_FUZZ_TARGET picks one of `frame`, `requests`,
// `records`. With CHIME_FUZZ_WRITE_SEEDS=DIR the binary writes the seed corpora to DIR/<target>/
// and exits (see Fuzz/README.md).
// Any trap (overflow, out-of-bounds index, force unwrap, a failed `require`) or sanitizer
// report is a crash.

#if canImport(Glibc)
import Glibc
#endif
import ChimeCore
import ChimeRecords
import ChimeWire
import Foundation

enum WireTarget: String, CaseIterable {
  case frame, requests, records, dbus
}

let selectedWireTarget: WireTarget = {
  if let raw = getenv("CHIME_FUZZ_TARGET"), let target = WireTarget(rawValue: String(cString: raw)) {
    return target
  }
  let names = WireTarget.allCases.map(\.rawValue).joined(separator: " ")
  print("CHIME_FUZZ_TARGET must be one of: \(names)")
  exit(2)
}()

@_cdecl("LLVMFuzzerInitialize")
public func chimeWireFuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
  if let dir = getenv("CHIME_FUZZ_WRITE_SEEDS") {
    writeSeeds(to: String(cString: dir))
    exit(0)
  }
  _ = selectedWireTarget
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func chimeWireFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  switch selectedWireTarget {
  case .frame: fuzzFrames(bytes)
  case .requests: fuzzRequest(bytes)
  case .records: fuzzRecord(bytes)
  case .dbus: fuzzDBusArguments(bytes)
  }
  return 0
}

/// A failed check. `fatalError`, not `precondition`: an -O build prints only fatalError's message.
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
  if !condition { fatalError(message(), file: file, line: line) }
}

func failed(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message, file: file, line: line)
}

// MARK: frame

/// The frame limits the harness picks from (the first byte's low two bits).
let frameLimits = [0, 64, Limits.maxFrameBytesDefault, 4096]

/// Input: byte 0 picks the decoder's limit; byte 1 (mod 8) is a count n of split points, each
/// the next 2 bytes (big-endian, modulo the stream's length + 1); the rest is the byte stream.
/// The stream is fed in the chunks the split points make, and frames are taken out after each.
///
/// Checked: the chunked run gives exactly what one `append` of the whole stream gives (frames,
/// the error, the bytes left buffered); each frame re-encodes to bytes that decode to it; a
/// length prefix over the limit ends the stream with RESOURCE_EXHAUSTED `FRAME_TOO_LARGE` (and
/// none within it does), an undecodable body with INVALID_ARGUMENT `MALFORMED_FRAME`; a stream
/// without an error leaves only an incomplete frame buffered; errors are sticky.
func fuzzFrames(_ input: [UInt8]) {
  guard input.count >= 2 else { return }
  let limit = frameLimits[Int(input[0] & 3)]
  let n = Int(input[1] % 8)
  guard input.count >= 2 + 2 * n else { return }
  let stream = Array(input[(2 + 2 * n)...])
  var cuts: [Int] = []
  for i in 0..<n {
    let raw = Int(input[2 + 2 * i]) << 8 | Int(input[3 + 2 * i])
    cuts.append(raw % (stream.count + 1))
  }
  cuts.sort()

  let chunked = run(stream, limit: limit, cuts: cuts)
  let whole = run(stream, limit: limit, cuts: [])
  require(chunked.frames == whole.frames, "frames depend on how the stream was split")
  require(chunked.error == whole.error, "the error depends on how the stream was split")
  require(chunked.buffered == whole.buffered, "buffered bytes depend on how the stream was split")

  // What a reader of the length prefixes expects.
  var offset = 0
  var lengths: [Int] = []
  while stream.count - offset >= 4 {
    let length = Int(stream[offset]) << 24 | Int(stream[offset + 1]) << 16 | Int(stream[offset + 2]) << 8 | Int(stream[offset + 3])
    lengths.append(length)
    if length > limit || stream.count - offset - 4 < length { break }
    offset += 4 + length
  }
  let k = whole.frames.count
  for i in 0..<k { require(lengths[i] <= limit, "a frame over the limit was accepted") }
  if let error = whole.error {
    require(k < lengths.count, "an error with no frame left to read")
    if error.code == .frameTooLarge {
      require(lengths[k] > limit, "FRAME_TOO_LARGE for a frame within the limit")
      require(error.chimeError.code == .resourceExhausted && error.chimeError.reason == Reason.frameTooLarge.name,
                   "an oversized frame without RESOURCE_EXHAUSTED FRAME_TOO_LARGE")
    } else {
      require(error.code == .malformedFrame, "an unknown framing error")
      require(lengths[k] <= limit, "an oversized frame reported as malformed")
      require(error.chimeError.code == .invalidArgument && error.chimeError.reason == Reason.malformedFrame.name,
                   "a malformed frame without INVALID_ARGUMENT MALFORMED_FRAME")
    }
    require(whole.buffered == 0, "a failed decoder keeps bytes")
  } else {
    // Only an incomplete frame (or prefix) may be left.
    let consumed = lengths.prefix(k).reduce(0) { $0 + 4 + $1 }
    require(whole.buffered == stream.count - consumed, "bytes lost or invented")
    if k < lengths.count {
      require(lengths[k] <= limit, "a frame over the limit was neither refused nor accepted")
      require(stream.count - consumed - 4 < lengths[k], "a complete frame was left buffered")
    } else {
      require(stream.count - consumed < 4, "a complete length prefix was left unread")
    }
  }

  for frame in whole.frames {
    let bytes = FrameEncoder.encode(frame)
    var decoder = FrameDecoder(maxFrameBytes: Limits.maxFrameBytesDefault)
    decoder.append(bytes)
    let again: Frame?
    do { again = try decoder.next() } catch { failed("a decoded frame does not decode after re-encoding: \(error)") }
    require(again == frame, "a frame does not round-trip")
    require(decoder.bufferedByteCount == 0, "re-encoded frame leaves bytes")
  }
}

struct FrameRun {
  var frames: [Frame] = []
  var error: FramingError?
  var buffered = 0
}

func run(_ stream: [UInt8], limit: Int, cuts: [Int]) -> FrameRun {
  var decoder = FrameDecoder(maxFrameBytes: limit)
  var result = FrameRun()
  var start = 0
  for end in cuts + [stream.count] {
    decoder.append(Array(stream[start..<end]))
    start = end
    while result.error == nil {
      do {
        guard let frame = try decoder.next() else { break }
        result.frames.append(frame)
      } catch {
        result.error = error
        // Sticky: the same error again, bytes after it dropped.
        do { _ = try decoder.next(); failed("a failed decoder recovered") } catch {
          require(error == result.error, "a failed decoder changed its error")
        }
      }
    }
  }
  result.buffered = decoder.bufferedByteCount
  return result
}

// MARK: requests and records

/// A decoder the daemon runs, with the encoder of the same message when the codec has one.
struct Codec: Sendable {
  var name: String
  var check: @Sendable ([UInt8]) -> Void
  var sample: @Sendable () -> [[UInt8]]

  /// Decodes; on success, encodes the value again and decodes that: it must give an equal value
  /// (or, for values holding NaN, the same bytes again). A refusal must carry a reason.
  init<T: Equatable & Sendable>(_ name: String, decode: @escaping @Sendable ([UInt8]) throws(ChimeError) -> T,
                     encode: @escaping @Sendable (T) throws(ChimeError) -> [UInt8], samples: @escaping @Sendable () -> [T]) {
    self.name = name
    self.check = { bytes in roundTrip(name, bytes, decode, encode) }
    self.sample = { samples().map { v in (try? encode(v)) ?? [] } }
  }

  init(_ name: String, check: @escaping @Sendable ([UInt8]) -> Void, sample: @escaping @Sendable () -> [[UInt8]]) {
    self.name = name
    self.check = check
    self.sample = sample
  }
}

func refused(_ error: ChimeError, _ name: String) {
  require(!error.reason.isEmpty, "\(name): a refusal without a reason")
  require(error.code == .invalidArgument, "\(name): a refusal of bytes that is not INVALID_ARGUMENT: \(error)")
}

func roundTrip<T: Equatable>(_ name: String, _ bytes: [UInt8], _ decode: ([UInt8]) throws(ChimeError) -> T,
                             _ encode: (T) throws(ChimeError) -> [UInt8]) {
  let value: T
  do { value = try decode(bytes) } catch { refused(error, name); return }
  let encoded: [UInt8]
  do { encoded = try encode(value) } catch { failed("\(name): a decoded value does not encode: \(error)") }
  let again: T
  do { again = try decode(encoded) } catch { failed("\(name): a re-encoded value does not decode: \(error)") }
  if again != value {
    // NaN is not equal to itself: then the bytes must be a fixed point.
    let reencoded = try? encode(again)
    require(reencoded == encoded, "\(name): does not round-trip")
  }
}

/// Every request decode chimed runs on a client's payload (CallTable.swift), picked by the first byte.
let requestCodecs: [Codec] = [
  Codec("AddRequest", decode: WireCodec.decodeAddRequest, encode: WireCodec.encodeAddRequest,
        samples: { [FullValues.fullRequest(), FullValues.minimalRequest] }),
  Codec("PageRequest", check: { bytes in
    roundTrip("PageRequest", bytes, WireCodec.decodePageRequest, WireCodec.encodePageRequest)
    // The store reads the token a client sends back.
    if let page = try? WireCodec.decodePageRequest(bytes) { pageToken(page.pageToken) }
  }, sample: {
    [PageRequest(pageSize: 7, pageToken: ""), PageRequest(pageSize: 100, pageToken: PageToken(kind: .pending, instant: 1_700_000_000_000, identifier: "tea-ready").encoded),
     PageRequest(pageSize: 1, pageToken: PageToken(kind: .delivered, instant: -5, identifier: "x").encoded)]
      .map { (try? WireCodec.encodePageRequest($0)) ?? [] }
  }),
  Codec("IdentifiersRequest", decode: WireCodec.decodeIdentifiersRequest, encode: WireCodec.encodeIdentifiersRequest,
        samples: { [["a", "b", "missing"], []] }),
  Codec("Empty", check: { bytes in
    do throws(ChimeError) { try WireCodec.decodeEmpty(bytes) } catch { refused(error, "Empty") }
  }, sample: { [WireCodec.encodeEmpty()] }),
  Codec("SubscribeRequest", decode: WireCodec.decodeSubscribeRequest, encode: WireCodec.encodeSubscribeRequest(after:),
        samples: { [41, nil, 0] }),
  Codec("NextTriggerDatesRequest", decode: WireCodec.decodeNextTriggerDatesRequest, encode: WireCodec.encodeNextTriggerDatesRequest,
        samples: { [WireCodec.NextTriggerDatesRequest(trigger: FullValues.fullRequest().trigger, after: Instant(unixMillis: 5), count: 3)] }),
  Codec("SetCategoriesRequest", decode: WireCodec.decodeSetCategoriesRequest, encode: WireCodec.encodeSetCategoriesRequest,
        samples: { [[FullValues.fullCategory(), FullValues.minimalCategory]] }),
  Codec("RespondRequest", decode: WireCodec.decodeRespondRequest, encode: WireCodec.encodeRespondRequest,
        samples: { [FullValues.fullResponse(), NotificationResponse(notificationIdentifier: "n")] }),
  Codec("RegisterExtensionRequest", decode: WireCodec.decodeRegisterExtensionRequest, encode: WireCodec.encodeRegisterExtensionRequest,
        samples: { [ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: ["a"], attributes: ExtensionAttributes(
          initialContentSizeRatio: 0.5, defaultContentHidden: true, overridesDefaultTitle: true, userInteractionEnabled: true,
          mediaButton: MediaPlayPauseButton(type: .overlay, frame: MediaButtonFrame(x: 1, y: 2, width: 44, height: 45), tintColor: "#FF8800")))] }),
  Codec("AnswerResponseRequest", decode: WireCodec.decodeAnswerResponseRequest, encode: WireCodec.encodeAnswerResponseRequest,
        samples: { [WireCodec.ExtensionAnswerRequest(extensionIdentifier: "e", responseID: 7, answer: .dismissAndForward)] }),
  Codec("AuthorizationRequest", decode: WireCodec.decodeAuthorizationRequest, encode: WireCodec.encodeAuthorizationRequest,
        samples: { [[.alert, .sound, .badge, .criticalAlert, .provisional, .timeSensitive]] }),
  Codec("SetBadgeCountRequest", decode: WireCodec.decodeSetBadgeCountRequest, encode: WireCodec.encodeSetBadgeCountRequest,
        samples: { [-3, 12] }),
  Codec("AppSettingsRequest", decode: WireCodec.decodeAppSettingsRequest, encode: WireCodec.encodeAppSettingsRequest,
        samples: { [AppSettingsChange(appID: "org.example.a", status: .authorized, enable: [.criticalAlert, .carPlay], disable: [.sound, .badge])] }),
  Codec("RegisterAppRequest", decode: WireCodec.decodeRegisterAppRequest, encode: WireCodec.encodeRegisterAppRequest,
        samples: { [WireCodec.AppRegistration(container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")] }),
  Codec("CheckSoundRequest", decode: WireCodec.decodeCheckSoundRequest, encode: WireCodec.encodeCheckSoundRequest(name:),
        samples: { ["ding.caf"] }),
  Codec("PressMediaButtonRequest", decode: WireCodec.decodePressMediaButtonRequest, encode: WireCodec.encodePressMediaButtonRequest,
        samples: { [MediaPress(notificationIdentifier: "song", command: .pause)] }),
  Codec("ReportMediaPlaybackRequest", decode: WireCodec.decodeReportMediaPlaybackRequest, encode: WireCodec.encodeReportMediaPlaybackRequest,
        samples: { MediaPlayback.allCases.map { MediaPlaybackReport(extensionIdentifier: "p", notificationIdentifier: "song", playback: $0) } }),
  Codec("PushRequest", decode: WireCodec.decodePushRequest, encode: WireCodec.encodePushRequest,
        samples: { [PushSubmission(payload: Array(#"{"aps":{"alert":"x"}}"#.utf8), identifier: "collapse")] }),
  Codec("AnswerServiceRequest", decode: WireCodec.decodeAnswerServiceRequest, encode: WireCodec.encodeAnswerServiceRequest,
        samples: { [ServiceAnswerRequest(extensionIdentifier: "svc", requestID: 42, answer: .content(FullValues.fullRequest().content)),
                    ServiceAnswerRequest(extensionIdentifier: "svc", requestID: 1, answer: .failed("no network"))] }),
  Codec("SnoozeRequest", decode: WireCodec.decodeSnoozeRequest, encode: WireCodec.encodeSnoozeRequest,
        samples: { [SnoozeRequest(notificationIdentifier: "tea", durationSeconds: 600), SnoozeRequest(notificationIdentifier: "", durationSeconds: -1)] }),
  Codec("NotificationSettings", decode: WireCodec.decodeNotificationSettings, encode: WireCodec.encodeNotificationSettings,
        samples: { [NotificationSettings(status: .provisional, alert: true, sound: false, badge: true, criticalAlert: true,
                                         timeSensitive: true, carPlay: true, announcement: true,
                                         providesAppNotificationSettings: true, badgeCount: 12)] }),
]

/// What ChimeStore decodes from the rows it reads back (ChimeRecords' RecordCodec,
/// ChimeDatabase+Apps), picked by the first byte.
let records = RecordCodec()
let recordCodecs: [Codec] = [
  Codec("PendingRequest", decode: { bytes throws(ChimeError) in try records.decode(PendingRequest.self, from: bytes) }, encode: records.encode,
        samples: { [FullValues.fullPending(), FullValues.minimalPending] }),
  Codec("DeliveredNotification", decode: { bytes throws(ChimeError) in try records.decode(DeliveredNotification.self, from: bytes) },
        encode: records.encode, samples: { [FullValues.fullDelivered(), FullValues.minimalDelivered] }),
  Codec("Category", decode: { bytes throws(ChimeError) in try records.decode(NotificationCategory.self, from: bytes) }, encode: records.encode,
        samples: { [FullValues.fullCategory(), FullValues.minimalCategory] }),
  Codec("Event", decode: { bytes throws(ChimeError) in try records.decode(Event.self, from: bytes) }, encode: records.encode,
        samples: { [FullValues.fullEvent(), Event(cursor: 3, at: Instant(unixMillis: 1_000), kind: .badgeChanged, identifiers: ["t"], badgeCount: 0)] }),
  Codec("AppLayout", decode: WireCodec.decodeAppLayout, encode: WireCodec.encodeAppLayout,
        samples: { [AppLayout(appID: "org.example.tea", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")] }),
  // `app.groups` is a JSON array of strings, read and written by ChimeDatabase.layout(from:)
  // and RegisterApp through JSONStringList.
  Codec("app.groups", check: { bytes in
    if let groups = JSONStringList.strings(from: String(decoding: bytes, as: UTF8.self)) {
      require(JSONStringList.strings(from: JSONStringList.text(groups)) == groups, "app.groups does not round-trip")
      require(JSONStringList.strings(from: JSONStringList.text(groups, escapingSlashes: false)) == groups,
              "app.groups does not round-trip unescaped")
    }
  }, sample: { [Array(#"["/g1","/g2"]"#.utf8), Array("[]".utf8)] }),
]

func fuzzRequest(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  requestCodecs[Int(first) % requestCodecs.count].check(Array(bytes.dropFirst()))
}

func fuzzRecord(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  recordCodecs[Int(first) % recordCodecs.count].check(Array(bytes.dropFirst()))
}

/// A token the store accepts names its listing and encodes back to a token that reads the same.
func pageToken(_ token: String) {
  for kind in [PageToken.Kind.pending, .delivered] {
    do throws(ChimeError) {
      guard let decoded = try PageToken.decode(token, as: kind) else {
        require(token.isEmpty, "a non-empty token read as the first page")
        continue
      }
      require(decoded.kind == kind, "a token of another listing accepted")
      require((try? PageToken.decode(decoded.encoded, as: kind)) == decoded, "a page token does not round-trip")
    } catch {
      require(error.reason == Reason.invalidPageToken.name, "a bad page token without INVALID_PAGE_TOKEN")
    }
  }
}

// MARK: seeds

/// Writes the seed corpora: valid encodings made by the codec's encoders from the wire tests'
/// fixtures, each behind its selector byte (and, for frames, a limit byte and split points).
func writeSeeds(to dir: String) {
  func write(_ target: WireTarget, _ index: Int, _ name: String, _ bytes: [UInt8]) {
    let folder = "\(dir)/\(target.rawValue)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = "\(folder)/\(String(format: "%02d", index))-\(name)"
    require(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
  }
  for (codecs, target) in [(requestCodecs, WireTarget.requests), (recordCodecs, .records)] {
    for (i, codec) in codecs.enumerated() {
      for (j, sample) in codec.sample().enumerated() {
        write(target, i, "\(codec.name)-\(j)", [UInt8(i)] + sample)
      }
    }
  }
  let add = (try? WireCodec.encodeAddRequest(FullValues.fullRequest())) ?? []
  let frames: [Frame] = [
    .call(id: 1, CallHeader(method: Method.add.rawValue, appID: "org.example.tea", deadline: Instant(unixMillis: 1_700_000_000_000)), payload: add),
    .call(id: 2, CallHeader(method: Method.getPending.rawValue, appID: "org.example.tea"), payload: [8, 7]),
    .cancel(id: 2),
    .reply(id: 1, payload: Array(0..<200), endOfStream: true, status: nil),
    .reply(id: 3, payload: [], endOfStream: true, status: ChimeError(Reason.malformedPayload, "bad", field: "request")),
  ]
  let stream = frames.flatMap(FrameEncoder.encode)
  // Limit 1 MiB (selector 2), no split; the same split in three places; limit 64 (selector 1),
  // which refuses the Add frame; a truncated stream.
  write(.frame, 0, "all", [2, 0] + stream)
  write(.frame, 1, "split", [2, 3, 0, 5, 0, 40, 1, 44] + stream)
  write(.frame, 2, "limit64", [1, 0] + stream)
  write(.frame, 3, "truncated", [2, 1, 0, 3] + stream.dropLast(7))
  for (i, frame) in frames.enumerated() {
    write(.frame, 4 + i, "one", [2, 0] + FrameEncoder.encode(frame))
  }
}

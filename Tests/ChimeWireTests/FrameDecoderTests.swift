import ChimeCore
import ChimeTestSupport
@testable import ChimeWire
import Testing

@Suite struct FrameDecoderTests {
  static let sample: [Frame] = [
    .call(id: 1, CallHeader(method: Method.getPending.rawValue, appID: "org.example.a"), payload: [9, 9]),
    .reply(id: 1, payload: Array(0..<200), endOfStream: true, status: nil),
    .cancel(id: 2),
    .reply(id: 2, payload: [], endOfStream: true, status: ChimeError(.cancelled, reason: "CANCELLED", "cancelled")),
  ]

  static var sampleBytes: [UInt8] { sample.flatMap(FrameEncoder.encode) }

  private func decodeAll(_ decoder: inout FrameDecoder) throws(FramingError) -> [Frame] {
    var out: [Frame] = []
    while let f = try decoder.next() { out.append(f) }
    return out
  }

  // MARK: Chunking

  @Test func byteByByte() throws {
    var decoder = FrameDecoder()
    var frames: [Frame] = []
    for b in Self.sampleBytes {
      decoder.append([b])
      frames += try decodeAll(&decoder)
    }
    #expect(frames == Self.sample)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func allAtOnce() throws {
    var decoder = FrameDecoder()
    decoder.append(Self.sampleBytes)
    #expect(try decodeAll(&decoder) == Self.sample)
  }

  @Test func fromRawBufferPointer() throws {
    var decoder = FrameDecoder()
    Self.sampleBytes.withUnsafeBytes { decoder.append($0) }
    #expect(try decodeAll(&decoder) == Self.sample)
  }

  @Test func truncatedFrameWaitsForTheRest() throws {
    let bytes = FrameEncoder.encode(Self.sample[1])
    for cut in 0..<bytes.count {
      var decoder = FrameDecoder()
      decoder.append(Array(bytes[..<cut]))
      #expect(try decoder.next() == nil, "cut at \(cut)")
      #expect(try decoder.next() == nil, "cut at \(cut), asked again")
      #expect(decoder.bufferedByteCount == cut)
      decoder.append(Array(bytes[cut...]))
      #expect(try decoder.next() == Self.sample[1])
    }
  }

  @Test func bufferIsCompactedWhileStreaming() throws {
    // Many frames split so that a partial frame is always left over: the buffer must not grow
    // with the total bytes seen.
    let frame = FrameEncoder.encode(.reply(id: 1, payload: Array(repeating: 1, count: 1000), endOfStream: false, status: nil))
    let stream = Array(repeating: frame, count: 2000).flatMap { $0 }
    var decoder = FrameDecoder()
    var count = 0
    var maxBuffered = 0
    var maxStored = 0
    var i = 0
    while i < stream.count {
      let end = min(i + 1499, stream.count)
      decoder.append(Array(stream[i..<end]))
      i = end
      while try decoder.next() != nil { count += 1 }
      maxBuffered = max(maxBuffered, decoder.bufferedByteCount)
      maxStored = max(maxStored, decoder.storedByteCount)
    }
    #expect(count == 2000)
    #expect(maxBuffered < 2 * frame.count)
    // Frames taken out are dropped from the buffer too, not only skipped.
    #expect(maxStored < 2 * (frame.count + 1499), "held \(maxStored) bytes of a \(stream.count)-byte stream")
    #expect(decoder.bufferedByteCount == 0)
  }

  // MARK: Size limit

  @Test func lengthOverTheLimitIsRefusedBeforeTheBody() {
    var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
    decoder.append([0x00, 0x10, 0x00, 0x01])  // 1 MiB + 1, and no body at all
    let error = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(error?.code == .frameTooLarge)
    #expect(error?.message.contains("1048577") == true)
    #expect(error?.message.contains("over the limit of 1048576") == true)
    #expect(error?.chimeError.code == .resourceExhausted)
    #expect(error?.chimeError.reason == "FRAME_TOO_LARGE")
  }

  @Test func hugeLengthIsRefused() {
    var decoder = FrameDecoder()
    decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
    #expect(throws: FramingError.self) { try decoder.next() }
  }

  @Test func frameExactlyAtTheLimitIsAccepted() throws {
    let bytes = FrameEncoder.encode(.reply(id: 1, payload: Array(repeating: 7, count: 100), endOfStream: true, status: nil))
    var exact = FrameDecoder(maxFrameBytes: bytes.count - 4)
    exact.append(bytes)
    #expect(try exact.next() != nil)
    var under = FrameDecoder(maxFrameBytes: bytes.count - 5)
    under.append(bytes)
    #expect(throws: FramingError.self) { try under.next() }
  }

  @Test func errorsAreSticky() {
    var decoder = FrameDecoder(maxFrameBytes: 10)
    decoder.append([0, 0, 0, 11])
    let first = #expect(throws: FramingError.self) { try decoder.next() }
    decoder.append(FrameEncoder.encode(.cancel(id: 1)))
    #expect(decoder.bufferedByteCount == 0)
    let second = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(first == second)
  }

  // MARK: Malformed bodies

  @Test func garbageIsMalformed() {
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed([0xFF, 0xFF, 0xFF]))
    let error = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(error?.code == .malformedFrame)
    #expect(error?.chimeError.code == .invalidArgument)
    #expect(error?.chimeError.reason == "MALFORMED_FRAME")
    #expect(ChimeError(error!) == error?.chimeError)
  }

  @Test func frameWithNoKindIsMalformed() {
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(ProtoWriter.message { $0.field(1, varint: 5) }))
    let error = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(error?.code == .malformedFrame)
    #expect(error?.message.contains("no call, cancel or reply") == true)
  }

  @Test func emptyFrameIsMalformed() {
    var decoder = FrameDecoder()
    decoder.append([0, 0, 0, 0])
    #expect(throws: FramingError.self) { try decoder.next() }
  }

  @Test func invalidUTF8InHeaderIsMalformed() {
    let body = ProtoWriter.message { f in
      f.field(1, varint: 1)
      f.field(2) { c in c.field(2, bytes: [0xC3, 0x28]) }
    }
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(body))
    let error = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(error?.message.contains("call.app_id") == true)
  }

  @Test func aNULInTheAppIDIsMalformed() {
    // "org.a\0x" would otherwise be read as "org.a": another app's identity.
    let body = ProtoWriter.message { f in
      f.field(1, varint: 1)
      f.field(2) { c in
        c.field(1, string: "/chime.v1.NotificationCenter/GetPending")
        c.field(2, bytes: Array("org.a".utf8) + [0] + Array("x".utf8))
      }
    }
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(body))
    let error = #expect(throws: FramingError.self) { try decoder.next() }
    #expect(error?.code == .malformedFrame)
    #expect(error?.message.contains("call.app_id contains a NUL") == true)
  }

  @Test func zerosInAPayloadAreFine() throws {
    let body = ProtoWriter.message { f in
      f.field(1, varint: 7)
      f.field(2) { c in
        c.field(1, string: "/chime.v1.NotificationCenter/Add")
        c.field(2, string: "org.a")
        c.field(4, bytes: [0, 0, 1, 0])
      }
    }
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(body))
    guard case .call(let id, let header, let payload)? = try decoder.next() else {
      Issue.record("expected a call")
      return
    }
    #expect(id == 7)
    #expect(header.appID == "org.a")
    #expect(payload == [0, 0, 1, 0])
  }

  @Test func framesBeforeABadOneAreDelivered() throws {
    var decoder = FrameDecoder()
    decoder.append(FrameEncoder.encode(.cancel(id: 1)) + ProtoWriter.framed([0xFF]))
    #expect(try decoder.next() == .cancel(id: 1))
    #expect(throws: FramingError.self) { try decoder.next() }
  }

  // MARK: Randomized

  enum Outcome: Equatable {
    case frames([Frame])
    case failed([Frame], FramingError)
  }

  private func decode(_ bytes: [UInt8], chunks: [Int], maxFrameBytes: Int) -> Outcome {
    var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
    var frames: [Frame] = []
    var i = 0
    var c = 0
    while i < bytes.count {
      let n = max(1, min(chunks[c % chunks.count], bytes.count - i))
      c += 1
      decoder.append(Array(bytes[i..<i + n]))
      i += n
      do {
        while let f = try decoder.next() { frames.append(f) }
      } catch {
        return .failed(frames, error)
      }
    }
    return .frames(frames)
  }

  private func randomFrame(_ rng: inout SplitMix64) -> Frame {
    let id = UInt64.random(in: 0...1000, using: &rng)
    switch Int.random(in: 0..<3, using: &rng) {
    case 0:
      return .call(id: id, CallHeader(method: "/m\(id)", appID: "app", deadline: Bool.random(using: &rng) ? Instant(unixMillis: Int64(id)) : nil), payload: rng.bytes(Int.random(in: 0..<300, using: &rng)))
    case 1:
      return .cancel(id: id)
    default:
      let status = Bool.random(using: &rng) ? ChimeError(.notFound, reason: "R", "m\(id)", field: "f") : nil
      return .reply(id: id, payload: rng.bytes(Int.random(in: 0..<300, using: &rng)), endOfStream: Bool.random(using: &rng), status: status)
    }
  }

  @Test func randomChunkingsAndCorruptionsNeverCrashAndAgree() {
    var rng = SplitMix64(seed: 0xC41E)
    for round in 0..<300 {
      let frames = (0..<Int.random(in: 1...6, using: &rng)).map { _ in randomFrame(&rng) }
      var bytes = frames.flatMap(FrameEncoder.encode)
      let corrupt = round % 3 != 0
      if corrupt {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        }
      }
      let limit = 4096
      let whole = decode(bytes, chunks: [bytes.count], maxFrameBytes: limit)
      if !corrupt { #expect(whole == .frames(frames), "round \(round)") }
      for _ in 0..<3 {
        let chunks = (0..<5).map { _ in Int.random(in: 1...64, using: &rng) }
        let chunked = decode(bytes, chunks: chunks, maxFrameBytes: limit)
        // A stream cut before its end yields fewer frames, never different ones.
        switch (whole, chunked) {
        case (.failed, .failed), (.frames, .frames):
          #expect(whole == chunked, "round \(round), chunks \(chunks)")
        default:
          Issue.record("round \(round): whole \(whole) vs chunked \(chunked)")
        }
      }
    }
  }

  @Test func randomBytesNeverCrash() {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<500 {
      var bytes = rng.bytes(Int.random(in: 0..<64, using: &rng))
      // Half the time, a plausible small length prefix so bodies actually reach protobuf-c.
      if Bool.random(using: &rng) {
        bytes = ProtoWriter.framed(rng.bytes(Int.random(in: 0..<48, using: &rng))) + bytes
      }
      var decoder = FrameDecoder(maxFrameBytes: 1024)
      decoder.append(bytes)
      var steps = 0
      while steps < 100 {
        steps += 1
        guard (try? decoder.next()) != nil else { break }
      }
      #expect(steps < 100)
    }
  }
}

import ChimeSystem
import ChimeCore
internal import CCanberra
import Synchronization

/// One libcanberra context, opened once and used from the work pool only (opening and playing
/// may touch the audio server or device): never from the loop. Calls are serialized by a lock.
/// The only file that touches libcanberra.
final class CanberraContext: Sendable {
  private struct Handle: @unchecked Sendable { var pointer: OpaquePointer }
  private let handle: Locked<Handle>
  private let nextID = Atomic<UInt32>(1)

  /// Opens a context (libcanberra picks its driver; `$CA_DRIVER` may name one); fails with
  /// the reason when no driver loads. Blocks: work pool only.
  static func open() -> Result<CanberraContext, CanberraError> {
    var context: OpaquePointer?
    var r = ca_context_create(&context)
    guard r == 0, let context else { return .failure(CanberraError(code: r)) }
    r = ca_context_open(context)
    guard r == 0 else {
      ca_context_destroy(context)
      return .failure(CanberraError(code: r))
    }
    _ = chime_alsa_route_errors()
    return .success(CanberraContext(context))
  }

  private init(_ pointer: OpaquePointer) {
    handle = Locked(Handle(pointer: pointer))
  }

  /// What one play call came to: its error, and what ALSA said meanwhile (its lines joined
  /// with " | ", empty when it said nothing or another driver played).
  struct Played: Sendable {
    var error: CanberraError?
    var alsaSaid: String
  }

  /// Starts playing a file (or, when `file` is nil, the sound theme's `eventID`); volume 0...1,
  /// nil to leave it. Does not wait for the end. ALSA's messages are collected, not printed.
  func play(file: String?, eventID: String?, volume: Double?) -> Played {
    let id = nextID.add(1, ordering: .relaxed).oldValue
    return handle.withLock { handle in
      // libasound may be loaded only now (the driver opens it for the first sound).
      _ = chime_alsa_route_errors()
      let r = chime_canberra_play(handle.pointer, id, file, eventID, volume ?? -1)
      let said = alsaSaid.withLock { lines in
        defer { lines.removeAll() }
        return lines.joined(separator: " | ")
      }
      return Played(error: r == 0 ? nil : CanberraError(code: r), alsaSaid: said)
    }
  }

  /// As `play`, then waits (at most `timeoutMillis`) for the sound to end or be cancelled by
  /// `stop`. Blocks: work pool only. A cancelled play is no error.
  func playToEnd(file: String?, eventID: String?, volume: Double?, stop: SoundStop, timeoutMillis: Int) -> Played {
    let id = nextID.add(1, ordering: .relaxed).oldValue
    guard let end = chime_canberra_end_new() else { return Played(error: CanberraError(code: Int32(CA_ERROR_OOM)), alsaSaid: "") }
    defer { chime_canberra_end_free(end) }
    var played = handle.withLock { handle in
      _ = chime_alsa_route_errors()
      let r = chime_canberra_play_watched(handle.pointer, id, file, eventID, volume ?? -1, end)
      return Played(error: r == 0 ? nil : CanberraError(code: r), alsaSaid: "")
    }
    if played.error == nil {
      stop.playing(self, id: id)
      let r = chime_canberra_end_wait(end, Int32(timeoutMillis))
      if r == Int32(CA_ERROR_STATE) { cancel(id) }
      stop.playing(nil, id: 0)
      if r != 0, r != Int32(CA_ERROR_CANCELED), r != Int32(CA_ERROR_STATE) { played.error = CanberraError(code: r) }
    }
    played.alsaSaid = alsaSaid.withLock { lines in
      defer { lines.removeAll() }
      return lines.joined(separator: " | ")
    }
    return played
  }

  /// Stops the sound started with `id` (its end is told as cancelled). Any thread.
  func cancel(_ id: UInt32) {
    _ = handle.withLock { ca_context_cancel($0.pointer, id) }
  }

  deinit {
    _ = handle.withLock { ca_context_destroy($0.pointer) }
  }
}

/// ALSA's messages since the last play call, kept by `chime_alsa_said` (at most 32: the rest of
/// a burst adds nothing a reader needs).
private let alsaSaid = Mutex<[String]>([])

/// ALSA's error handler's sink (see CCanberra's shim): called on whichever thread ALSA runs in.
@_cdecl("chime_alsa_said")
func chimeALSASaid(_ line: UnsafePointer<CChar>?) {
  guard let line else { return }
  let text = String(cString: line)
  alsaSaid.withLock { lines in
    if lines.count < 32 { lines.append(text) }
  }
}

struct CanberraError: Error, Sendable, CustomStringConvertible {
  var code: Int32
  var description: String { "libcanberra: " + String(cString: ca_strerror(code)) }

  /// The error is about the file played, not the audio device or server: libcanberra decodes
  /// WAV (PCM) and Ogg Vorbis only, and Chime also accepts CAF, AIFF and other WAV codecs.
  /// (`CA_ERROR_NOTFOUND` is not one: ALSA reports a missing device with it.)
  var isAboutTheSound: Bool {
    let codes: [Int32] = [Int32(CA_ERROR_CORRUPT), Int32(CA_ERROR_NOTSUPPORTED), Int32(CA_ERROR_TOOBIG), Int32(CA_ERROR_ACCESS),
                          Int32(CA_ERROR_IO)]
    return codes.contains(code)
  }
}

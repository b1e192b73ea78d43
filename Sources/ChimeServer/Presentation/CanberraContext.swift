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
    return .success(CanberraContext(context))
  }

  private init(_ pointer: OpaquePointer) {
    handle = Locked(Handle(pointer: pointer))
  }

  /// Starts playing a file (or, when `file` is nil, the sound theme's `eventID`); volume 0...1,
  /// nil to leave it. Does not wait for the end.
  func play(file: String?, eventID: String?, volume: Double?) -> CanberraError? {
    let id = nextID.add(1, ordering: .relaxed).oldValue
    let r = handle.withLock { handle in
      chime_canberra_play(handle.pointer, id, file, eventID, volume ?? -1)
    }
    return r == 0 ? nil : CanberraError(code: r)
  }

  deinit {
    _ = handle.withLock { ca_context_destroy($0.pointer) }
  }
}

struct CanberraError: Error, CustomStringConvertible {
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

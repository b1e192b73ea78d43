public import CChimeProto
import Glibc

/// Owns every C allocation made while building one message to pack (message structs, strings
/// and pointer arrays) or while protobuf-c unpacks one (`allocator`): `ProtoMessage` frees them
/// all at once when the bytes are out or the message has been read.
///
/// Pieces are cut from a few malloc'd chunks (the first 1 KiB, each next one twice the last up
/// to 64 KiB; a piece over 32 KiB gets an allocation of its own), 16-byte aligned as malloc's
/// are: a request packs and unpacks with a few allocations instead of one per field.
///
/// Message structs are zeroed and then set up by their generated `_init` (the `*_INIT` macros are
/// invisible from Swift), so string fields start out pointing at protobuf-c's static empty
/// string; `assign` leaves an empty Swift string there and never frees it.
// Public (its members package) so the `@inlinable` generic members below are serialised into
// the module: an `@inlinable` member of a `package` type is not, and every caller in ChimeWire
// and ChimeStore then ran the unspecialised generic code (+8% instructions per client add).
public final class CArena {
  /// The chunk pieces are cut from, and what is left of it.
  @exclusivity(unchecked) private var current: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var left = 0
  /// Every chunk but `current`, freed with it.
  @exclusivity(unchecked) private var full: [UnsafeMutableRawPointer] = []
  @exclusivity(unchecked) private var nextChunkBytes = CArena.firstChunkBytes

  package static let firstChunkBytes = 1024
  /// The largest chunk made for small pieces; a piece over half of it gets its own allocation.
  package static let largestChunkBytes = 64 << 10

  @usableFromInline
  package init() {}

  deinit {
    freeAll()
  }

  @usableFromInline
  package func freeAll() {
    if let current { free(current) }
    for chunk in full { free(chunk) }
    current = nil
    left = 0
    full.removeAll()
    nextChunkBytes = Self.firstChunkBytes
    used = 0
    refused = false
  }

  /// `bytes` (at least 1) of memory aligned to 16, zeroed when `zeroed`, valid until `freeAll`.
  /// For what this process builds: stops the process when memory runs out.
  @usableFromInline
  package func allocate(bytes: Int, zeroed: Bool = true) -> UnsafeMutableRawPointer {
    guard let piece = tryAllocate(bytes: bytes, zeroed: zeroed) else { fatalError("out of memory (\(bytes) bytes)") }
    return piece
  }

  /// Bytes handed out so far, and the most this arena may hand out (`allocator` answers NULL
  /// past it, and protobuf-c fails the unpack).
  package var allocated: Int { used }
  @usableFromInline
  package var limit: Int {
    get { budget }
    set { budget = newValue }
  }
  /// Set when a piece was refused for `limit`.
  @usableFromInline
  package var limitReached: Bool { refused }

  // The stored state is private and reached from other modules only through the accessors
  // above. Those accessors are `@usableFromInline` (ChimeWire and ChimeStore inline the generic
  // pack and unpack helpers, so they are specialised for each message), and the optimiser then
  // no longer proves exclusivity statically: without `@exclusivity(unchecked)` every piece and
  // every `freeAll` paid a run-time access check. An arena is used by one thread, one call at a
  // time, and no accessor calls out while it holds a property.
  @exclusivity(unchecked) private var used = 0
  @exclusivity(unchecked) private var budget = Int.max
  @exclusivity(unchecked) private var refused = false
  @exclusivity(unchecked) private var cut = false

  /// As `allocate`, or nil when `bytes` is negative (a `size_t` past `Int.max`), would take
  /// the arena past `limit`, or memory runs out.
  @usableFromInline
  package func tryAllocate(bytes: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
    guard bytes >= 0, bytes <= Int.max - 16 else { return nil }
    let size = (max(bytes, 1) + 15) & ~15
    guard size <= budget - used else {
      refused = true
      return nil
    }
    let piece: UnsafeMutableRawPointer
    if size <= left {
      piece = current! + (chunkBytes - left)
      left -= size
    } else if size > Self.largestChunkBytes / 2 {
      // A large piece gets a chunk of its own; the current one keeps what it has left.
      guard let own = malloc(size) else { return nil }
      full.append(own)
      piece = own
    } else {
      guard newChunk(atLeast: size) else { return nil }
      piece = current!
      left -= size
    }
    used += size
    if zeroed { memset(piece, 0, size) }
    return piece
  }

  /// The size of `current`.
  @exclusivity(unchecked) private var chunkBytes = 0

  /// Replaces `current` with a chunk of `nextChunkBytes`, or of `size` when that is larger.
  private func newChunk(atLeast size: Int) -> Bool {
    let bytes = max(nextChunkBytes, size)
    guard let chunk = malloc(bytes) else { return false }
    if let current { full.append(current) }
    current = chunk
    chunkBytes = bytes
    left = bytes
    nextChunkBytes = min(nextChunkBytes * 2, Self.largestChunkBytes)
    return true
  }

  /// A protobuf-c allocator that cuts from this arena, valid while the arena is. For
  /// `protobuf_c_message_unpack` only; a message unpacked with it must not be given to
  /// `protobuf_c_message_free_unpacked`. Its `free` does nothing: the arena frees everything at
  /// once. What protobuf-c frees while unpacking stays allocated until then, which `limit`
  /// bounds: merging a singular message that appears many times concatenates its repeated
  /// fields into new arrays each time, memory that grows with the square of the payload.
  @usableFromInline
  package var allocator: ProtobufCAllocator {
    ProtobufCAllocator(
      alloc: { data, size in
        Unmanaged<CArena>.fromOpaque(data!).takeUnretainedValue().tryAllocate(bytes: size, zeroed: false)
      },
      free: { _, _ in },
      allocator_data: Unmanaged.passUnretained(self).toOpaque())
  }

  /// A new message struct, initialised by its generated `_init` function.
  @inlinable
  package func message<M>(_ initialize: (UnsafeMutablePointer<M>?) -> Void) -> UnsafeMutablePointer<M> {
    let p = allocate(bytes: MemoryLayout<M>.stride).bindMemory(to: M.self, capacity: 1)
    initialize(p)
    return p
  }

  /// Set when a string given to `string(_:)` held a NUL: its C copy is cut there.
  @usableFromInline
  package var cutAtNUL: Bool { cut }

  /// A NUL-terminated copy of `s`. A string holding NUL is cut there (C strings cannot hold one)
  /// and `cutAtNUL` says so, for encoders that must refuse rather than send something else.
  @usableFromInline
  package func string(_ s: String) -> UnsafeMutablePointer<CChar> {
    var s = s
    return s.withUTF8 { utf8 in
      if utf8.contains(0) { cut = true }
      let p = allocate(bytes: utf8.count + 1).bindMemory(to: CChar.self, capacity: utf8.count + 1)
      if let base = utf8.baseAddress {
        UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: utf8.count)
      }
      return p
    }
  }

  /// Sets a singular string field; an empty string keeps the field's static default.
  @inlinable
  package func assign(_ field: inout UnsafeMutablePointer<CChar>?, _ s: String) {
    if !s.isEmpty { field = string(s) }
  }

  /// An array for a repeated field, or nil when empty.
  @inlinable
  package func array<E>(of _: E.Type, count: Int) -> UnsafeMutablePointer<E>? {
    guard count > 0 else { return nil }
    return allocate(bytes: MemoryLayout<E>.stride * count).bindMemory(to: E.self, capacity: count)
  }

  /// Sets a repeated string field from `strings`.
  @inlinable
  package func assign(_ field: inout UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: inout Int, _ strings: [String]) {
    count = strings.count
    field = array(of: UnsafeMutablePointer<CChar>?.self, count: strings.count)
    for (i, s) in strings.enumerated() { field![i] = string(s) }
  }

  /// Sets a repeated scalar field (e.g. `int64`) from `values`.
  @inlinable
  package func assign<E>(_ field: inout UnsafeMutablePointer<E>?, count: inout Int, _ values: [E]) {
    count = values.count
    field = array(of: E.self, count: values.count)
    for (i, v) in values.enumerated() { field![i] = v }
  }

  /// Sets a repeated message field, building each element with `build`.
  @inlinable
  package func assign<T, M>(_ field: inout UnsafeMutablePointer<UnsafeMutablePointer<M>?>?, count: inout Int, _ items: [T], _ build: (T) -> UnsafeMutablePointer<M>) {
    count = items.count
    field = array(of: UnsafeMutablePointer<M>?.self, count: items.count)
    for (i, item) in items.enumerated() { field![i] = build(item) }
  }
}

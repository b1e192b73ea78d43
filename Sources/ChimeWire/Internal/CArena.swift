internal import CChimeProto
import Glibc

/// Owns every C allocation made while building one message to pack: message structs, strings and
/// pointer arrays. `ProtoMessage.pack(building:)` frees them all once the bytes are out.
///
/// Message structs are zeroed and then set up by their generated `_init` (the `*_INIT` macros are
/// invisible from Swift), so string fields start out pointing at protobuf-c's static empty
/// string; `assign` leaves an empty Swift string there and never frees it.
final class CArena {
  private var allocations: [UnsafeMutableRawPointer] = []

  init() {
    allocations.reserveCapacity(16)
  }

  deinit {
    freeAll()
  }

  func freeAll() {
    for p in allocations { free(p) }
    allocations.removeAll()
  }

  private func allocate(bytes: Int) -> UnsafeMutableRawPointer {
    guard let p = calloc(1, max(bytes, 1)) else { fatalError("out of memory") }
    allocations.append(p)
    return p
  }

  /// A new message struct, initialised by its generated `_init` function.
  func message<M>(_ initialize: (UnsafeMutablePointer<M>?) -> Void) -> UnsafeMutablePointer<M> {
    let p = allocate(bytes: MemoryLayout<M>.stride).bindMemory(to: M.self, capacity: 1)
    initialize(p)
    return p
  }

  /// Set when a string given to `string(_:)` held a NUL: its C copy is cut there.
  private(set) var cutAtNUL = false

  /// A NUL-terminated copy of `s`. A string holding NUL is cut there (C strings cannot hold one)
  /// and `cutAtNUL` says so, for encoders that must refuse rather than send something else.
  func string(_ s: String) -> UnsafeMutablePointer<CChar> {
    var s = s
    return s.withUTF8 { utf8 in
      if utf8.contains(0) { cutAtNUL = true }
      let p = allocate(bytes: utf8.count + 1).bindMemory(to: CChar.self, capacity: utf8.count + 1)
      if let base = utf8.baseAddress {
        UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: utf8.count)
      }
      return p
    }
  }

  /// Sets a singular string field; an empty string keeps the field's static default.
  func assign(_ field: inout UnsafeMutablePointer<CChar>?, _ s: String) {
    if !s.isEmpty { field = string(s) }
  }

  /// An array for a repeated field, or nil when empty.
  func array<E>(of _: E.Type, count: Int) -> UnsafeMutablePointer<E>? {
    guard count > 0 else { return nil }
    return allocate(bytes: MemoryLayout<E>.stride * count).bindMemory(to: E.self, capacity: count)
  }

  /// Sets a repeated string field from `strings`.
  func assign(_ field: inout UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: inout Int, _ strings: [String]) {
    count = strings.count
    field = array(of: UnsafeMutablePointer<CChar>?.self, count: strings.count)
    for (i, s) in strings.enumerated() { field![i] = string(s) }
  }

  /// Sets a repeated message field, building each element with `build`.
  func assign<T, M>(_ field: inout UnsafeMutablePointer<UnsafeMutablePointer<M>?>?, count: inout Int, _ items: [T], _ build: (T) -> UnsafeMutablePointer<M>) {
    count = items.count
    field = array(of: UnsafeMutablePointer<M>?.self, count: items.count)
    for (i, item) in items.enumerated() { field![i] = build(item) }
  }
}

/// CRC-32 (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320 reflected), as PNG uses it.
struct CRC32 {
  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 {
      c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1
    }
    return c
  }

  private(set) var state: UInt32 = 0xFFFF_FFFF

  mutating func update(_ bytes: [UInt8]) {
    var c = state
    Self.table.withUnsafeBufferPointer { t in
      for b in bytes {
        c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8)
      }
    }
    state = c
  }

  var value: UInt32 { state ^ 0xFFFF_FFFF }
}

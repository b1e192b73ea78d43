/// Builds sound files byte by byte, for the cases the committed fixtures do not cover
/// (exact 30-second boundaries at 8 kHz, odd rates, unsupported formats, broken headers).
public enum MediaSoundFileBuilder {
  private typealias B = MediaBytes

  public static func wav(formatTag: UInt16, channels: UInt16 = 1, rate: UInt32 = 8000, bits: UInt16 = 8,
                  blockAlign: UInt16? = nil, dataBytes: Int, fact: UInt32? = nil,
                  extensibleSubformat: UInt16? = nil, subformatGUIDTail: [UInt8]? = nil,
                  riffSizeDelta: Int = 0, dataSizeDelta: Int = 0) -> [UInt8] {
    let align = blockAlign ?? UInt16(max(1, Int(channels) * ((Int(bits) + 7) / 8)))
    var fmt: [UInt8]
    if let sub = extensibleSubformat {
      let tail = subformatGUIDTail ?? [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
      fmt = B.le16(0xFFFE) + B.le16(channels) + B.le32(rate) + B.le32(rate * UInt32(align)) + B.le16(align) + B.le16(bits)
      fmt += B.le16(22) + B.le16(bits) + B.le32(0) + B.le16(sub) + tail
    } else {
      fmt = B.le16(formatTag) + B.le16(channels) + B.le32(rate) + B.le32(rate * UInt32(align)) + B.le16(align) + B.le16(bits)
    }
    var body = B.ascii("WAVE") + B.ascii("fmt ") + B.le32(UInt32(fmt.count)) + fmt
    if let fact { body += B.ascii("fact") + B.le32(4) + B.le32(fact) }
    body += B.ascii("data") + B.le32(UInt32(dataBytes + dataSizeDelta)) + [UInt8](repeating: 0x7F, count: dataBytes)
    if dataBytes % 2 == 1 { body.append(0) }
    return B.ascii("RIFF") + B.le32(UInt32(body.count + riffSizeDelta)) + body
  }

  public static func aiff(aifc: Bool = false, compression: String = "NONE", channels: Int16 = 1, frames: UInt32,
                   bits: Int16 = 8, rate: Double = 8000, rateBytes: [UInt8]? = nil, dataBytes: Int) -> [UInt8] {
    var comm = B.be16(UInt16(bitPattern: channels)) + B.be32(frames) + B.be16(UInt16(bitPattern: bits))
    comm += rateBytes ?? B.extended80(rate)
    if aifc { comm += B.ascii(compression) + [0, 0] }  // empty pascal string, padded
    var body = B.ascii(aifc ? "AIFC" : "AIFF")
    if aifc { body += B.ascii("FVER") + B.be32(4) + B.be32(0xA280_5140) }
    body += B.ascii("COMM") + B.be32(UInt32(comm.count)) + comm
    body += B.ascii("SSND") + B.be32(UInt32(8 + dataBytes)) + B.be32(0) + B.be32(0) + [UInt8](repeating: 0x55, count: dataBytes)
    if dataBytes % 2 == 1 { body.append(0) }
    return B.ascii("FORM") + B.be32(UInt32(body.count)) + body
  }

  public static func caf(format: String, flags: UInt32 = 0, bytesPerPacket: UInt32, framesPerPacket: UInt32,
                  channels: UInt32 = 1, bits: UInt32, rate: Double = 8000, dataBytes: Int,
                  pakt: (packets: Int64, valid: Int64)? = nil, dataSize: Int64? = nil, descFirst: Bool = true) -> [UInt8] {
    let descData = B.be64(rate.bitPattern) + B.ascii(format) + B.be32(flags) + B.be32(bytesPerPacket)
      + B.be32(framesPerPacket) + B.be32(channels) + B.be32(bits)
    let desc = B.ascii("desc") + B.be64(32) + descData
    let info = B.ascii("info") + B.be64(4) + B.be32(0)
    var out = B.ascii("caff") + B.be16(1) + B.be16(0)
    out += descFirst ? desc + info : info + desc
    if let pakt {
      out += B.ascii("pakt") + B.be64(24) + B.be64(UInt64(bitPattern: pakt.packets)) + B.be64(UInt64(bitPattern: pakt.valid))
        + B.be32(0) + B.be32(0)
    }
    let size = dataSize ?? Int64(4 + dataBytes)
    out += B.ascii("data") + B.be64(UInt64(bitPattern: size)) + B.be32(0) + [UInt8](repeating: 0x33, count: dataBytes)
    return out
  }
}

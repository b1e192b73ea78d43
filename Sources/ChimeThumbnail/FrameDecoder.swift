internal import CFFmpeg
import ChimeCore

/// Which frame of an animation or movie to decode.
enum FrameSelection: Equatable {
  /// The n-th frame (0-based) of an animated GIF or PNG; the last one when there are fewer.
  case index(Int)
  /// The frame on screen at this many seconds into a movie: the last one whose presentation
  /// time is not after it (the last frame when the movie is shorter).
  case seconds(Double)
}

/// Decodes one frame with FFmpeg (libavformat, libavcodec, libswscale): the one file that calls
/// it. Only local files are opened (`protocol_whitelist=file`) and only the demuxers of the
/// types Chime accepts (`format_whitelist`), so a file cannot make FFmpeg open anything else.
enum FrameDecoder {
  static let formats = "mov,mp4,m4a,3gp,3g2,mj2,avi,mpeg,mpegvideo,m4v,gif,apng"

  /// - Parameter format: the demuxer to use (`gif`, `apng`), or nil to let FFmpeg probe among
  ///   the allowed ones (movies).
  /// - Throws: THUMBNAIL_RENDER_FAILED when the file does not open, has no video, or no frame
  ///   decodes.
  /// - Returns: the frame as stored, and how far it must be turned clockwise (0, 90, 180 or
  ///   270 degrees) to be shown as the container says (a phone's portrait movie).
  static func decode(path: String, format: String?, selection: FrameSelection, maxPixels: Int) throws(ChimeError) -> (frame: RGBAFrame, rotation: Int) {
    // Our own messages say what failed; FFmpeg's console chatter would only reach chimed's log
    // or the CLI's stderr unasked.
    av_log_set_level(AV_LOG_QUIET)
    var options: OpaquePointer?
    av_dict_set(&options, "protocol_whitelist", "file", 0)
    av_dict_set(&options, "format_whitelist", formats, 0)
    defer { av_dict_free(&options) }
    var context: UnsafeMutablePointer<AVFormatContext>?
    let input = format.flatMap { av_find_input_format($0) }
    var status = avformat_open_input(&context, path, input, &options)
    guard status >= 0, let fmt = context else { throw failure("cannot open the file", status) }
    defer { avformat_close_input(&context) }
    status = avformat_find_stream_info(fmt, nil)
    guard status >= 0 else { throw failure("cannot read the streams", status) }
    let streamIndex = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    guard streamIndex >= 0, let stream = fmt.pointee.streams[Int(streamIndex)], let params = stream.pointee.codecpar else {
      throw failure("the file has no video stream", streamIndex)
    }
    guard let codec = avcodec_find_decoder(params.pointee.codec_id) else { throw failure("no decoder for the video", 0) }
    var codecContext = avcodec_alloc_context3(codec)
    guard let decoder = codecContext else { throw failure("cannot allocate a decoder", 0) }
    defer { avcodec_free_context(&codecContext) }
    guard avcodec_parameters_to_context(decoder, params) >= 0 else { throw failure("bad codec parameters", 0) }
    // One thread: the work pool runs several of these, and the machine is small.
    decoder.pointee.thread_count = 1
    status = avcodec_open2(decoder, codec, nil)
    guard status >= 0 else { throw failure("cannot open the decoder", status) }

    let rotation = clockwiseRotation(stream)
    var target = Int64.max
    if case .seconds(let seconds) = selection {
      let base = stream.pointee.time_base
      let start = stream.pointee.start_time == Int64.min ? 0 : stream.pointee.start_time
      if base.num > 0, base.den > 0 {
        target = start + Int64((seconds * Double(base.den) / Double(base.num)).rounded(.down))
      }
      if seconds > 0 && av_seek_frame(fmt, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 {
        avcodec_flush_buffers(decoder)
      }
    }

    var packet = av_packet_alloc()
    var current = av_frame_alloc()
    var previous = av_frame_alloc()
    defer {
      av_packet_free(&packet)
      av_frame_free(&current)
      av_frame_free(&previous)
    }
    guard let packet, let current, let previous else { throw failure("out of memory", 0) }
    var havePrevious = false
    var seen = 0
    var draining = false
    while true {
      if !draining {
        let read = av_read_frame(fmt, packet)
        if read < 0 {
          draining = true
          avcodec_send_packet(decoder, nil)
        } else {
          defer { av_packet_unref(packet) }
          guard packet.pointee.stream_index == streamIndex else { continue }
          // A packet the decoder refuses is skipped: a damaged frame should not hide the rest.
          _ = avcodec_send_packet(decoder, packet)
        }
      }
      while true {
        let received = avcodec_receive_frame(decoder, current)
        if received == chime_averror_eagain() { break }
        if received < 0 {
          // The end of the stream (or a decoder that gave up): the last frame decoded is it.
          guard havePrevious else { throw failure("no frame decodes", received) }
          return (try convert(previous, maxPixels: maxPixels), rotation)
        }
        switch selection {
        case .index(let wanted):
          if seen >= wanted { return (try convert(current, maxPixels: maxPixels), rotation) }
          seen += 1
        case .seconds:
          let pts = current.pointee.best_effort_timestamp
          if pts != Int64.min && pts > target {
            return (try convert(havePrevious ? previous : current, maxPixels: maxPixels), rotation)
          }
        }
        av_frame_unref(previous)
        av_frame_move_ref(previous, current)
        havePrevious = true
      }
    }
  }

  /// The stream's display matrix as a clockwise turn in quarter turns, as the ffmpeg tool's
  /// autorotate reads it; 0 when there is none or it is not a quarter turn.
  private static func clockwiseRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
    var size = 0
    guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else { return 0 }
    let counterclockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
    guard counterclockwise.isFinite else { return 0 }
    var degrees = Int((-counterclockwise).rounded()) % 360
    if degrees < 0 { degrees += 360 }
    return (degrees + 45) / 90 % 4 * 90
  }

  /// The frame as packed RGBA.
  private static func convert(_ frame: UnsafeMutablePointer<AVFrame>, maxPixels: Int) throws(ChimeError) -> RGBAFrame {
    let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
    guard width > 0, height > 0, width * height <= maxPixels else {
      throw ChimeError(.thumbnailRenderFailed, "the decoded frame is \(width)×\(height), more than \(maxPixels) pixels can be rendered")
    }
    guard let scaler = sws_getContext(Int32(width), Int32(height), AVPixelFormat(rawValue: frame.pointee.format),
                                      Int32(width), Int32(height), AV_PIX_FMT_RGBA, SWS_BILINEAR, nil, nil, nil) else {
      throw failure("cannot convert the frame's pixel format", 0)
    }
    defer { sws_freeContext(scaler) }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let rows = pixels.withUnsafeMutableBufferPointer { buffer in
      chime_sws_to_rgba(scaler, frame, buffer.baseAddress, Int32(width * 4))
    }
    guard rows == Int32(height) else { throw failure("the frame did not convert", rows) }
    return RGBAFrame(width: width, height: height, pixels: pixels)
  }

  private static func failure(_ what: String, _ status: Int32) -> ChimeError {
    var text = [CChar](repeating: 0, count: 128)
    var message = what
    if status < 0 {
      av_strerror(status, &text, text.count)
      message += ": " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return ChimeError(.thumbnailRenderFailed, "the movie decoder: " + message)
  }
}

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

/// One decoded frame, as stored and as it is to be shown.
struct DecodedFrame {
  var frame: RGBAFrame
  /// How far it must be turned clockwise (0, 90, 180 or 270 degrees) to be shown as the
  /// container says (a phone's portrait movie).
  var rotation: Int
  /// The width ÷ height of one stored pixel as the viewer sees it (a DVD's 720×576 4:3 picture
  /// has 16:15); 1 when the file does not say.
  var sampleAspect: Double
}

/// Decodes one frame with FFmpeg (libavformat, libavcodec, libswscale): the one file that calls
/// it. Only local files are opened (`protocol_whitelist=file`) and only the demuxers of the
/// types Chime accepts (`format_whitelist`), so a file cannot make FFmpeg open anything else.
enum VideoFrameDecoder {
  static let formats = "mov,mp4,m4a,3gp,3g2,mj2,avi,mpeg,mpegvideo,m4v,gif,apng"

  /// - Parameter format: the demuxer to use (`gif`, `apng`), or nil to let FFmpeg probe among
  ///   the allowed ones (movies).
  /// - Throws: THUMBNAIL_RENDER_FAILED when the file does not open, has no video, or no frame
  ///   decodes.
  ///
  /// A movie whose stream has no timestamps (an MPEG program stream written without them) is
  /// not seeked: its frames are counted in output order, the one at `seconds` × the frame rate
  /// is shown (the frames' spacing is the frame rate's, which is how the inspector timed it).
  static func decode(path: String, format: String?, selection wanted: FrameSelection, maxPixels: Int) throws(ChimeError) -> DecodedFrame {
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
    var selection = wanted
    var target = Int64.max
    var seeked = false
    if case .seconds(let seconds) = wanted {
      let base = stream.pointee.time_base
      if stream.pointee.start_time == Int64.min {
        let rate = stream.pointee.r_frame_rate.num > 0 ? stream.pointee.r_frame_rate : stream.pointee.avg_frame_rate
        let fps = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0
        selection = .index(fps > 0 && seconds > 0 ? Int(min((seconds * fps + 1e-6).rounded(.down), Double(Int32.max))) : 0)
      } else if base.num > 0, base.den > 0 {
        let start = stream.pointee.start_time
        target = start + Int64((seconds * Double(base.den) / Double(base.num)).rounded(.down))
        if seconds > 0 && av_seek_frame(fmt, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 {
          avcodec_flush_buffers(decoder)
          seeked = true
        }
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
    let walk = Walk(fmt: fmt, decoder: decoder, streamIndex: streamIndex, packet: packet, current: current, previous: previous)
    var chosen: UnsafeMutablePointer<AVFrame>
    do throws(ChimeError) {
      chosen = try walk.run(selection, target: target)
    } catch {
      // A seek that lands past the last decodable frame (timestamps that do not match the
      // data): decode from the start instead.
      guard seeked, av_seek_frame(fmt, streamIndex, stream.pointee.start_time, AVSEEK_FLAG_BACKWARD) >= 0
        || av_seek_frame(fmt, -1, 0, AVSEEK_FLAG_BYTE) >= 0 else { throw error }
      avcodec_flush_buffers(decoder)
      chosen = try walk.run(selection, target: target)
    }
    let aspect = av_guess_sample_aspect_ratio(fmt, stream, chosen)
    let sampleAspect = aspect.num > 0 && aspect.den > 0 ? Double(aspect.num) / Double(aspect.den) : 1
    return DecodedFrame(frame: try convert(chosen, maxPixels: maxPixels), rotation: rotation,
                        sampleAspect: sampleAspect.isFinite && sampleAspect > 0 ? sampleAspect : 1)
  }

  /// Reads packets and decodes until the selected frame is out.
  private struct Walk {
    let fmt: UnsafeMutablePointer<AVFormatContext>
    let decoder: UnsafeMutablePointer<AVCodecContext>
    let streamIndex: Int32
    let packet: UnsafeMutablePointer<AVPacket>
    let current: UnsafeMutablePointer<AVFrame>
    let previous: UnsafeMutablePointer<AVFrame>

    /// The frame chosen (`current` or `previous`).
    func run(_ selection: FrameSelection, target: Int64) throws(ChimeError) -> UnsafeMutablePointer<AVFrame> {
      av_frame_unref(previous)
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
            return previous
          }
          switch selection {
          case .index(let wanted):
            if seen >= wanted { return current }
            seen += 1
          case .seconds:
            let pts = current.pointee.best_effort_timestamp
            if pts != Int64.min && pts > target {
              return havePrevious ? previous : current
            }
          }
          av_frame_unref(previous)
          av_frame_move_ref(previous, current)
          havePrevious = true
        }
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
    // swscale's vector code writes whole aligned blocks, past the end of a row whose width is
    // not a multiple of its block (a 90-pixel-wide movie): it gets rows of 64-byte aligned
    // stride and slack after the last, and the packed rows are copied out.
    let stride = (width * 4 + 63) / 64 * 64
    var padded = [UInt8](repeating: 0, count: stride * height + 64)
    let rows = padded.withUnsafeMutableBufferPointer { buffer in
      chime_sws_to_rgba(scaler, frame, buffer.baseAddress, Int32(stride))
    }
    guard rows == Int32(height) else { throw failure("the frame did not convert", rows) }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { out in
      padded.withUnsafeBufferPointer { source in
        for row in 0..<height {
          (out.baseAddress! + row * width * 4).update(from: source.baseAddress! + row * stride, count: width * 4)
        }
      }
    }
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

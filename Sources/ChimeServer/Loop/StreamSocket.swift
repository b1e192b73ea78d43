internal import CLibUV
import ChimeCore
import ChimeSystem

/// An accepted Unix-socket stream. Loop thread only.
///
/// Bytes read are handed to `onBytes` synchronously from a buffer that is reused for the next
/// read, so the receiver must copy what it keeps. `onClose` runs once, when the stream ends for
/// any reason. Writes copy their bytes; `queuedWriteBytes` tells how much the peer has not yet
/// taken, so the owner can refuse to buffer without bound for a peer that never reads.
///
/// Its state is private, read and set from the transport modules through accessors: stored
/// properties visible to other modules would pay a run-time exclusivity check at each read.
package final class StreamSocket {
  fileprivate let handle: UnsafeMutablePointer<uv_pipe_t>
  fileprivate var readBuffer: UnsafeMutableRawBufferPointer
  fileprivate var bytesHandler: (UnsafeRawBufferPointer) -> Void = { _ in }
  private var closeHandler: (String) -> Void = { _ in }
  private var closed = false
  private var closeReason = ""

  /// Takes each read's bytes (valid during the call only: the buffer is reused).
  package var onBytes: (UnsafeRawBufferPointer) -> Void {
    get { bytesHandler }
    set { bytesHandler = newValue }
  }
  /// Runs once, when the stream ends for any reason, with why.
  package var onClose: (String) -> Void {
    get { closeHandler }
    set { closeHandler = newValue }
  }
  package var isClosed: Bool { closed }

  fileprivate init(loop: EventLoop) {
    handle = .allocate(capacity: 1)
    uv_pipe_init(loop.raw, handle, 0)
    readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
  }

  /// Wraps a connected socket `fd` (non-blocking) that the caller accepted; nil, with `fd`
  /// closed, when libuv cannot take it.
  static func adopting(_ fd: FileDescriptor, loop: EventLoop) -> StreamSocket? {
    let socket = StreamSocket(loop: loop)
    guard uv_pipe_open(socket.handle, fd.rawValue) == 0 else {
      fd.close()
      socket.close(reason: "the accepted socket could not be opened")
      return nil
    }
    return socket
  }

  fileprivate var stream: UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
  }

  /// The peer's credentials (SO_PEERCRED), or nil if they cannot be read.
  func peerCredentials() -> PeerCredentials? {
    var fd: uv_os_fd_t = -1
    guard uv_fileno(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self), &fd) == 0 else { return nil }
    return PeerCredentials.of(fd: fd)
  }

  /// A pidfd for the peer process (SO_PEERPIDFD, else pidfd_open of its pid), or -1; the
  /// caller closes it.
  func peerPidFD(pid: Int32) -> Int32 {
    var fd: uv_os_fd_t = -1
    guard uv_fileno(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self), &fd) == 0 else { return -1 }
    return PeerCredentials.pidFD(fd: fd, pid: pid)
  }

  package func startReading() {
    uv_read_start(stream, streamAllocCallback(), streamReadCallback())
  }

  /// Bytes written but not yet taken by the kernel.
  package var queuedWriteBytes: Int { Int(uv_stream_get_write_queue_size(stream)) }

  /// Writes `bytes` now if the kernel takes them (`uv_try_write`: nothing queued before them);
  /// the rest is copied and queued (`uv_write`). Most replies are taken whole: no copy, no
  /// write request, and no libuv watcher change, which cost an `epoll_ctl` per reply.
  package func write(_ bytes: [UInt8]) {
    guard !isClosed, !bytes.isEmpty else { return }
    let written = bytes.withUnsafeBytes { raw -> Int in
      var buf = uv_buf_init(UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: CChar.self)), UInt32(raw.count))
      return Int(uv_try_write(stream, &buf, 1))
    }
    if written == bytes.count { return }
    // Not taken, or an error (a peer gone): queued as before, where libuv reports it the way it
    // always has.
    queue(bytes[max(written, 0)...])
  }

  private func queue(_ bytes: ArraySlice<UInt8>) {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    copy.copyBytes(from: bytes)
    let req = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
    req.pointee.data = UnsafeMutableRawPointer(copy.baseAddress)
    var buf = uv_buf_init(copy.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
    let rc = uv_write(req, stream, &buf, 1, streamWriteCallback())
    if rc != 0 {
      copy.deallocate()
      req.deallocate()
      close(reason: "write failed: \(String(cString: uv_strerror(rc)))")
    }
  }

  /// Stops reading, lets queued writes reach the peer, then closes (used to deliver a final
  /// status before hanging up on a peer that broke the framing rules).
  package func closeAfterFlush(reason: String) {
    guard !closed else { return }
    uv_read_stop(stream)
    bytesHandler = { _ in }
    let req = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
    req.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    closeReason = reason
    if uv_shutdown(req, stream, streamShutdownCallback()) != 0 {
      req.deallocate()
      close(reason: reason)
    }
  }

  fileprivate func shutdownDone() { close(reason: closeReason) }

  /// Closes the stream; pending writes are dropped. Calls `onClose` once.
  package func close(reason: String) {
    guard !closed else { return }
    closed = true
    if closeReason.isEmpty { closeReason = reason }
    uv_read_stop(stream)
    UnsafeMutableRawPointer(handle).withMemoryRebound(to: uv_handle_t.self, capacity: 1) {
      uv_close($0, streamCloseCallback())
    }
  }

  fileprivate func finishClose() {
    let callback = closeHandler
    closeHandler = { _ in }
    bytesHandler = { _ in }
    callback(closeReason)
    readBuffer.deallocate()
    handle.deallocate()
  }
}

private func streamAllocCallback() -> uv_alloc_cb {
  return { handle, _, buf in
    guard let handle, let buf, let data = handle.pointee.data else { return }
    let socket = Unmanaged<StreamSocket>.fromOpaque(data).takeUnretainedValue()
    buf.pointee = uv_buf_init(socket.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(socket.readBuffer.count))
  }
}

private func streamReadCallback() -> uv_read_cb {
  return { stream, nread, buf in
    guard let stream, let data = stream.pointee.data else { return }
    let socket = Unmanaged<StreamSocket>.fromOpaque(data).takeUnretainedValue()
    if nread > 0, let base = buf?.pointee.base {
      socket.bytesHandler(UnsafeRawBufferPointer(start: base, count: nread))
    } else if nread < 0 {
      socket.close(reason: nread == Int(UV_EOF.rawValue) ? "peer closed" : "read failed: \(String(cString: uv_strerror(Int32(nread))))")
    }
  }
}

private func streamWriteCallback() -> uv_write_cb {
  return { req, _ in
    guard let req else { return }
    req.pointee.data?.deallocate()
    req.deallocate()
  }
}

private func streamShutdownCallback() -> uv_shutdown_cb {
  return { req, _ in
    guard let req else { return }
    let data = req.pointee.data
    req.deallocate()
    if let data { Unmanaged<StreamSocket>.fromOpaque(data).takeUnretainedValue().shutdownDone() }
  }
}

private func streamCloseCallback() -> uv_close_cb {
  return { handle in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<StreamSocket>.fromOpaque(data).takeRetainedValue().finishClose()
  }
}

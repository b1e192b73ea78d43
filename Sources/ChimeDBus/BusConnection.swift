import ChimeCore
internal import CSystemd
import ChimeServer
import Logging

/// A connection to a bus through sd-bus, driven by the daemon's loop: the socket in a loop
/// poll handle, sd-bus's timeouts in a loop timer, every call to the bus asynchronous, and
/// replies and signals coming back in callbacks on the loop thread. Nothing here blocks. The
/// one sd-bus driver of chimed: the D-Bus API (`DBusFace`) and the presenter's connection to
/// the notification server (`NotificationServerBus`) each hold one. Loop thread only.
final class BusConnection {
  private let logger: Logger
  private(set) var bus: OpaquePointer?
  private var poll: LoopPoll?
  private var timer: LoopTimer?
  private var slots: [OpaquePointer] = []
  private var boxes: [Unmanaged<BusCallbackBox>] = []
  /// Calls to the bus waiting for their replies: failed all at once when the connection goes.
  private var waiting: [UInt64: (OpaquePointer?) -> Void] = [:]
  private var nextToken: UInt64 = 1
  /// Called once when the connection is lost (not after `close()`), with why.
  var onDisconnect: ((String) -> Void)?
  /// How long a call waits for its reply.
  static let callTimeoutMicros: UInt64 = 10_000_000

  /// Connects to `address` (nil: the session bus `DBUS_SESSION_BUS_ADDRESS` names, else the
  /// user's default); the handshake finishes on the loop.
  ///
  /// - Throws: UNAVAILABLE `DAEMON_UNAVAILABLE` when there is no bus to connect to.
  init(loop: EventLoop, address: String?, logger: Logger) throws(ChimeError) {
    self.logger = logger
    var opened: OpaquePointer?
    var r: Int32
    if let address {
      r = sd_bus_new(&opened)
      if r >= 0, let opened {
        r = sd_bus_set_address(opened, address)
        if r >= 0 { r = sd_bus_set_bus_client(opened, 1) }
        if r >= 0 { r = sd_bus_start(opened) }
        if r < 0 { sd_bus_unref(opened) }
      }
    } else {
      r = sd_bus_open_user(&opened)
    }
    guard r >= 0, let opened else {
      throw ChimeError(.daemonUnavailable, "cannot connect to the session bus: \(Self.errno(r))")
    }
    bus = opened
    do {
      poll = try LoopPoll(loop: loop, fd: sd_bus_get_fd(opened)) { [unowned self] events in
        if events == nil { disconnected("the bus socket failed") } else { pump() }
      }
    } catch {
      sd_bus_close_unref(opened)
      bus = nil
      throw ChimeError(.daemonUnavailable, "cannot watch the bus socket: \(error)")
    }
    timer = LoopTimer(loop: loop) { [unowned self] in pump() }
    scheduleRearm()
  }

  var isOpen: Bool { bus != nil }

  /// Keeps `slot` and `box` until the connection closes.
  func hold(slot: OpaquePointer?, box: Unmanaged<BusCallbackBox>?) {
    if let slot { slots.append(slot) }
    if let box { boxes.append(box) }
  }

  /// Calls `member` of `interface` at `destination`'s `path`, with the arguments `build`
  /// appends (a negative errno fails the call); `done` gets the reply, or why there is none
  /// (an error reply, the connection went first), on the loop.
  func call(_ destination: String, _ path: String, _ interface: String, _ member: String, build: (OpaquePointer) -> Int32,
            done: @escaping (Result<OpaquePointer, ChimeError>) -> Void) {
    guard let bus else { return done(.failure(ChimeError(.connectionClosed, "\(member): not connected to the session bus"))) }
    var message: OpaquePointer?
    var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
    guard r >= 0, let message else { return done(.failure(Self.failed(member, r))) }
    defer { sd_bus_message_unref(message) }
    r = build(message)
    guard r >= 0 else { return done(.failure(ChimeError(.daemonUnavailable, "\(member): cannot build the call: \(Self.errno(r))"))) }
    let token = nextToken
    nextToken += 1
    waiting[token] = { reply in
      guard let reply else { return done(.failure(ChimeError(.connectionClosed, "\(member): the bus connection was lost"))) }
      if let text = chime_bus_error_message(reply) {
        done(.failure(ChimeError(.daemonUnavailable, "\(member): \(String(cString: text))")))
      } else {
        done(.success(reply))
      }
    }
    let box = Unmanaged.passRetained(BusCallbackBox { [weak self] reply in
      self?.waiting.removeValue(forKey: token)?(reply)
    })
    r = sd_bus_call_async(bus, nil, message, busReplyHandler(), box.toOpaque(), Self.callTimeoutMicros)
    guard r >= 0 else {
      box.release()
      waiting[token] = nil
      return done(.failure(Self.failed(member, r)))
    }
    scheduleRearm()
  }

  /// Calls a method of the bus driver (`org.freedesktop.DBus`) with `arguments`.
  func callDriver(_ member: String, _ arguments: [BusValue], done: @escaping (Result<OpaquePointer, ChimeError>) -> Void) {
    call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member, build: { BusMessage.append($0, arguments) },
         done: done)
  }

  /// Subscribes to a signal (`sender` nil: from anyone); `body` runs for each, on the loop.
  /// False when sd-bus refused the match (logged).
  @discardableResult
  func matchSignal(sender: String?, path: String, interface: String, member: String,
                   _ body: @escaping (OpaquePointer) -> Void) -> Bool {
    guard let bus else { return false }
    let box = Unmanaged.passRetained(BusCallbackBox(body))
    var slot: OpaquePointer?
    let r = sd_bus_match_signal_async(bus, &slot, sender, path, interface, member, busSignalHandler(), nil, box.toOpaque())
    scheduleRearm()
    guard r >= 0 else {
      box.release()
      logger.warning("cannot watch a bus signal", metadata: ["member": "\(member)", "error": "\(Self.errno(r))"])
      return false
    }
    hold(slot: slot, box: box)
    return true
  }

  /// Subscribes to a signal of the bus driver.
  func matchDriverSignal(_ member: String, _ body: @escaping (OpaquePointer) -> Void) {
    matchSignal(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member, body)
  }

  /// Sends a message built elsewhere (a reply, a signal); false when sd-bus refused it.
  @discardableResult
  func send(_ message: OpaquePointer) -> Bool {
    guard let bus else { return false }
    let r = sd_bus_send(bus, message, nil)
    scheduleRearm()
    return r >= 0
  }

  /// Closes the connection; no callback runs afterwards, and each call still waiting fails.
  func close() {
    guard let bus else { return }
    self.bus = nil
    poll?.close()
    poll = nil
    timer?.close()
    timer = nil
    for slot in slots { sd_bus_slot_unref(slot) }
    slots.removeAll()
    for box in boxes { box.release() }
    boxes.removeAll()
    // Flushing could block the loop on a bus that stopped reading: what is queued is dropped.
    sd_bus_close_unref(bus)
    let pending = waiting.sorted { $0.key < $1.key }.map(\.value)
    waiting.removeAll()
    for fail in pending { fail(nil) }
  }

  /// Lets sd-bus read, write and dispatch on the next loop iteration.
  func scheduleRearm() {
    timer?.arm(afterMillis: 0)
  }

  private func pump() {
    guard let bus else { return }
    // Bounded: a peer flooding the bus cannot hold the loop; the rest waits one iteration.
    for _ in 0..<256 {
      let r = sd_bus_process(bus, nil)
      if r < 0 {
        disconnected("sd_bus_process: \(Self.errno(r))")
        return
      }
      // A callback may have closed the connection.
      guard self.bus != nil else { return }
      if r == 0 { return rearm() }
    }
    rearm()
    scheduleRearm()
  }

  private func rearm() {
    guard let bus else { return }
    if sd_bus_is_open(bus) <= 0 {
      disconnected("the session bus closed the connection")
      return
    }
    let wanted = chime_bus_wanted_events(bus)
    var events: LoopPoll.Events = []
    if wanted >= 0 {
      if wanted & 1 != 0 { events.insert(.readable) }
      if wanted & 2 != 0 { events.insert(.writable) }
    }
    poll?.watch(events)
    // sd-bus's deadlines are absolute CLOCK_MONOTONIC times: the only ones here are the 10 s
    // timeouts of calls, so they are looked at each second rather than by reading that clock.
    var deadline: UInt64 = 0
    if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != .max {
      timer?.arm(afterMillis: deadline == 0 ? 0 : 1000)
    } else {
      timer?.disarm()
    }
  }

  private func disconnected(_ why: String) {
    guard bus != nil else { return }
    close()
    onDisconnect?(why)
  }

  private static func failed(_ member: String, _ r: Int32) -> ChimeError {
    ChimeError(.daemonUnavailable, "\(member): \(errno(r))")
  }

  /// The text of a negative errno sd-bus returned.
  static func errno(_ r: Int32) -> String {
    String(cString: chime_strerror(r))
  }
}

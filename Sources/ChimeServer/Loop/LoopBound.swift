/// A value only the loop thread may touch. `@unchecked Sendable` because every access checks
/// (in debug builds) that it is on the loop (after swift-nio's NIOLoopBound).
final class LoopBound<Value>: @unchecked Sendable {
  private let _value: Value
  private let loop: EventLoop

  init(_ value: Value, loop: EventLoop) {
    self._value = value
    self.loop = loop
  }

  var value: Value {
    loop.assertInLoop()
    return _value
  }
}

/// A value only the loop thread may touch. `@unchecked Sendable` because it is created on the
/// loop and every access checks, in release builds too, that it is on the loop (after swift-nio's
/// NIOLoopBound).
final class LoopBound<Value>: @unchecked Sendable {
  private let _value: Value
  private let loop: EventLoop

  init(_ value: Value, loop: EventLoop) {
    loop.assertInLoop()
    self._value = value
    self.loop = loop
  }

  var value: Value {
    loop.assertInLoop()
    return _value
  }
}

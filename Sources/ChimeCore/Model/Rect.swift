/// A rectangle by its origin and size: a thumbnail's clipping rectangle (in the unit square) and
/// a media button's frame (in points) are both one.
public struct Rect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Normalized thumbnail clipping rectangle: x, y, width, height in the unit square.
public typealias ClipRect = Rect

/// A rectangle in a content extension's view, in points from its top-left corner.
public typealias MediaButtonFrame = Rect

import ChimeCore

/// What the service answers an add with: its result, and the request as the store packed it
/// for its row (`AddPending.packed`, the wire contract's PendingRequest), which the router
/// puts in the response as it is instead of packing the request a second time on the loop.
/// Nil when the add stored no pending request (one without a trigger is delivered at once).
struct AddAnswer {
  var result: AddResult
  var packedPending: [UInt8]?

  init(result: AddResult, packedPending: [UInt8]? = nil) {
    self.result = result
    self.packedPending = packedPending
  }
}

import CLinux

/// Hands memory freed on the heap back to the kernel (`malloc_trim(3)`): glibc keeps what a
/// burst of calls used in each thread's arena, so a daemon that served a load stays that big
/// long after. Walks every arena: call off the loop.
public enum HeapTrim {
  public static func now() {
    _ = malloc_trim(0)
  }
}

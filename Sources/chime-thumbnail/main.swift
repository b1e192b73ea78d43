// chime-thumbnail: renders one attachment thumbnail, in a process of its own.
//
// chimed and `chime attachment thumbnail` run it (ChimeSystem's `ThumbnailHelper`) so that
// neither links the decoders (gdk-pixbuf, FFmpeg and the libraries behind them) nor decodes an
// untrusted file in its own address space. Not meant to be run by hand.
//
// Contract (the arguments are `ThumbnailJob.arguments`):
//
//     chime-thumbnail --type UTI --bytes N --width W --height H [--pixels WxH] [--duration S] [--frames N]
//                     [--clip x,y,w,h] [--time T] --box WxH --output PATH [--mode OCTAL]
//                     [--max-memory-mib N] [--max-cpu-seconds N] -- FILE
//
// - The type and facts are the attachment inspector's (the caller inspected FILE); --clip and
//   --time are the attachment's thumbnailClippingRect and thumbnailTime; --box is the box the
//   thumbnail is scaled to fit.
// - First, before FILE is opened, RLIMIT_AS and RLIMIT_CPU are set to the limits given (not
//   RLIMIT_AS in a sanitizer build, whose shadow memory needs the address space).
// - Success: the PNG is written to `OUTPUT.staging-<pid>` (mode --mode, default 644) and renamed
//   to OUTPUT; `WxH` (the thumbnail's size) and a newline on stdout; exit 0.
// - Refusal: nothing at OUTPUT (the temporary removed), one line `REASON: message` on stderr
//   (REASON is a catalogued reason: THUMBNAIL_RENDER_FAILED, THUMBNAIL_NOT_AVAILABLE,
//   ATTACHMENT_INVALID_URL, ...), exit 1.
// - Anything else (killed by a signal or a limit, another status) is a crash to the caller.
import ChimeCore
import ChimeSystem
import ChimeThumbnail
import Glibc

func refuse(_ error: ChimeError) -> Never {
  let line = Array((ThumbnailJob.refusalLine(error) + "\n").utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

func limit(_ resource: Int32, _ value: Int) {
  var limits = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
  if setrlimit(__rlimit_resource_t(UInt32(resource)), &limits) != 0 {
    refuse(ChimeError(.thumbnailRenderFailed, "cannot set resource limit \(resource): \(String(cString: strerror(errno)))"))
  }
}

let job: ThumbnailJob
do throws(ChimeError) {
  job = try ThumbnailJob(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  refuse(error)
}
// A sanitizer build (`make test-asan`, `make test-tsan`) reserves terabytes of address space for
// its shadow memory: an address-space limit would stop it at start, so only the CPU limit applies.
let sanitized = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
if let mib = job.memoryLimitMiB, !sanitized { limit(Int32(RLIMIT_AS.rawValue), mib << 20) }
if let seconds = job.cpuLimitSeconds { limit(Int32(RLIMIT_CPU.rawValue), seconds) }

let png: [UInt8]
do throws(ChimeError) {
  png = try ThumbnailRenderer.render(path: job.file, facts: job.facts, options: job.options, box: job.box)
} catch {
  refuse(error)
}
// The size from the PNG's IHDR (bytes 16–23, big-endian), as gdk-pixbuf wrote it.
guard png.count >= 24 else { refuse(ChimeError(.thumbnailRenderFailed, "the PNG made is \(png.count) bytes")) }
let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }

let temporary = ThumbnailHelper.temporaryPath(for: job.output, pid: getpid())
do throws(Errno) {
  let fd = try FileDescriptor.createNew(temporary, mode: job.mode)
  defer { fd.close() }
  var failure: Errno?
  png.withUnsafeBytes { buffer in
    do throws(Errno) { try fd.writeAll(buffer) } catch { failure = error }
  }
  if let failure { throw failure }
  try FileSystem.rename(temporary, to: job.output)
} catch {
  try? FileSystem.unlink(temporary)
  refuse(ChimeError(.thumbnailRenderFailed, "cannot write \(job.output): \(error)"))
}
print("\(width)x\(height)")

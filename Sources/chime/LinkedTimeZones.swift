import FoundationEssentials
import FoundationInternationalization

/// Named time zones (`--tz Europe/Berlin`, `chime next`, calendar triggers) are ICU's:
/// FoundationEssentials finds them through FoundationInternationalization, which registers its
/// zone class with the runtime (a dynamic replacement) only when it is linked in. Release builds
/// link statically, and the linker takes an archive's members only for symbols something refers
/// to; nothing in `chime` names FoundationInternationalization (it imports only
/// FoundationEssentials, for start-up cost), so without this reference `TimeZone(identifier:)`
/// knows no zone but GMT. Never called: referring to it is enough.
public func linkICUTimeZones() -> String {
  TimeZone.timeZoneDataVersion
}

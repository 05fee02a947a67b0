/// A failure the command has already reported on stderr (a batch whose images failed one by
/// one): exit status 1 with no further message.
struct AlreadyReported: Error {}


// Entry point: parse, run, and turn every failure into a message and an exit status
// (2 for bad flags and unusable terminals, as the usage contract promises).
Platform.quietTheBacktracer()
Launch.mark()
Platform.tuneMalloc()
Platform.exit(DestinationsCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))

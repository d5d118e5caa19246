# Pattern: a dict literal mapping keys to functions, called by subscript `handlers[k](...)`.
# Modelled on argparse/CLI subcommand tables and the `_dispatch` dicts in pickle / pprint.


def cmd_init(args):
    return "initialised " + args[0]


def cmd_status(args):
    return "clean"


def cmd_commit(args):
    return "committed: " + " ".join(args)


COMMANDS = {
    "init": cmd_init,
    "status": cmd_status,
    "commit": cmd_commit,
}


def main(argv):
    name, rest = argv[0], argv[1:]
    return COMMANDS[name](rest)


for argv in (["init", "repo"], ["status"], ["commit", "fix", "bug"]):
    print(main(argv))

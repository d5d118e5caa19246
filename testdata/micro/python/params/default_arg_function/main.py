# Pattern: default argument values holding functions; called via the default or an override.
# Modelled on `shutil.copytree(copy_function=copy2)` and `logging.Formatter` style hooks.


def copy_bytes(src, dst):
    dst.extend(src)
    return len(src)


def copy_with_metadata(src, dst):
    n = copy_bytes(src, dst)
    dst.append("meta")
    return n


def copytree(files, copy_function=copy_with_metadata):
    result = {}
    for name, data in files.items():
        target = []
        copy_function(data, target)
        result[name] = target
    return result


files = {"a.txt": ["x", "y"], "b.txt": ["z"]}
print(copytree(files))
print(copytree(files, copy_function=copy_bytes))

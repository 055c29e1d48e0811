def version():
    return "root"

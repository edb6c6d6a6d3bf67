import json

def dumps(obj, ensure_ascii=False, width=110, indent=1, go_escape=False):
    """Pretty JSON: containers whose compact form is short are kept on one line."""
    def compact(o):
        return json.dumps(o, ensure_ascii=ensure_ascii, separators=(", ", ": "))
    def rec(o, level):
        c = compact(o)
        if not isinstance(o, (dict, list)) or len(c) + level * indent <= width or not o:
            return c
        pad = " " * (indent * (level + 1))
        end = " " * (indent * level)
        if isinstance(o, dict):
            items = [f"{pad}{json.dumps(k, ensure_ascii=ensure_ascii)}: {rec(v, level + 1)}" for k, v in o.items()]
            return "{\n" + ",\n".join(items) + "\n" + end + "}"
        items = [f"{pad}{rec(v, level + 1)}" for v in o]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    s = rec(obj, 0) + "\n"
    if go_escape:
        # Go's encoding/json escapes <, >, & and U+2028/U+2029 inside strings
        s = s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        s = s.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return s

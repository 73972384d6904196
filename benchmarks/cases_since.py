"""Compare every case (id -> input, expect, rules; perft rows) of conformance/fixtures, golden and perft at a45ae93 (or argv[1]) against HEAD: python benchmarks/cases_since.py [REV]"""
import subprocess, sys, yaml, json
def files(rev):
    out = subprocess.run(["git","ls-tree","-r","--name-only",rev,"conformance/fixtures","conformance/golden","conformance/perft"],capture_output=True,text=True).stdout.split()
    return [f for f in out if f.endswith((".yaml",".yml",".json",".jsonl"))]
def cases(rev):
    got = {}
    for f in files(rev):
        text = subprocess.run(["git","show",f"{rev}:{f}"],capture_output=True,text=True).stdout
        try:
            docs = [yaml.safe_load(text)] if not f.endswith(".jsonl") else [json.loads(l) for l in text.splitlines() if l.strip()]
        except Exception as e:
            got[f"<file {f}>"] = text; continue
        for d in docs:
            items = d.get("cases") if isinstance(d, dict) and "cases" in d else d.get("rows") if isinstance(d, dict) and "rows" in d else None
            if isinstance(items, list):
                for i, c in enumerate(items):
                    key = c.get("id", f"{f}#{i}") if isinstance(c, dict) else f"{f}#{i}"
                    got[key] = json.dumps({k: v for k, v in c.items() if k in ("input","expect","rules","nodes","depth","layout","counts","position","game")} if isinstance(c, dict) else c, sort_keys=True, default=str)
            else:
                got[f"<file {f}>"] = text
    return got
old, new = cases(sys.argv[1] if len(sys.argv) > 1 else "a45ae93"), cases("HEAD")
changed = [k for k in old if k in new and old[k] != new[k]]
removed = [k for k in old if k not in new]
print(f"cases/rows/files at a45ae93: {len(old)}; at HEAD: {len(new)}; added: {len(set(new)-set(old))}; changed: {len(changed)}; removed: {len(removed)}")
for k in changed[:40]: print("CHANGED", k)
for k in removed[:40]: print("REMOVED", k)

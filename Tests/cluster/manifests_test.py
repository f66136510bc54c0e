"""make test: packaging/kubernetes checked offline (no cluster is run here) — the kustomization
rendered (by `kubectl kustomize` when installed; always also by this file's own reading of its
resources and configMapGenerator, so the check needs no kubectl), every resource validated
strictly with kubernetes-validate against a current Kubernetes version, the probes asking the
endpoint the admin contract opens to probes, the Ingress hashing on the session header, and the
ConfigMap's fixtures served by stubd from the layout a ConfigMap volume has (files as links into
a hidden `..data` folder). A manifest with a misspelt field must fail the same validation.

    python3 Tests/cluster/manifests_test.py .build/debug/stubd
"""
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FOLDER = os.path.join(ROOT, "packaging", "kubernetes")
BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"
KUBERNETES = "1.34.0"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def render():
    """The kustomization's documents, as this file reads it (resources, common labels, the
    fixtures ConfigMap without kustomize's hash suffix)."""
    with open(os.path.join(FOLDER, "kustomization.yaml")) as file:
        kustomization = yaml.safe_load(file)
    documents = []
    for resource in kustomization["resources"]:
        with open(os.path.join(FOLDER, resource)) as file:
            documents += [doc for doc in yaml.safe_load_all(file) if doc]
    for generator in kustomization.get("configMapGenerator", []):
        data = {}
        for path in generator["files"]:
            with open(os.path.join(FOLDER, path)) as file:
                data[os.path.basename(path)] = file.read()
        documents.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": generator["name"]}, "data": data})
    labels = {k: v for entry in kustomization.get("labels", []) for k, v in entry["pairs"].items()}
    for document in documents:
        document.setdefault("metadata", {}).setdefault("labels", {}).update(labels)
    return documents


def validate(documents, scratch, name):
    path = os.path.join(scratch, name)
    with open(path, "w") as file:
        yaml.safe_dump_all(documents, file)
    done = subprocess.run([sys.executable, "-m", "kubernetes_validate", "--strict", "-k", KUBERNETES, path], capture_output=True, text=True)
    if done.returncode != 0 and "No module named kubernetes_validate.__main__" in done.stderr:
        done = subprocess.run(["kubernetes-validate", "--strict", "-k", KUBERNETES, path], capture_output=True, text=True)
    return done.returncode, (done.stdout + done.stderr).strip()


def main():
    scratch = tempfile.mkdtemp()
    try:
        documents = render()
        kinds = sorted(f"{d['kind']}/{d['metadata']['name']}" for d in documents)
        print("     resources: " + ", ".join(kinds))
        code, output = validate(documents, scratch, "rendered.yaml")
        check(code == 0, f"every resource passes kubernetes-validate --strict for Kubernetes {KUBERNETES}" + ("" if code == 0 else "\n" + output))
        kubectl = shutil.which("kubectl")
        if kubectl:
            done = subprocess.run([kubectl, "kustomize", FOLDER], capture_output=True, text=True)
            built = [d for d in yaml.safe_load_all(done.stdout) if d] if done.returncode == 0 else []
            code, output = validate(built, scratch, "kustomized.yaml") if built else (1, done.stderr)
            names = sorted(f"{d['kind']}/{d['metadata']['name']}".rsplit("-", 1)[0] if d["kind"] == "ConfigMap" else f"{d['kind']}/{d['metadata']['name']}" for d in built)
            check(code == 0 and names == kinds, f"kubectl kustomize renders the same resources and they validate ({names})")
        else:
            print("     kubectl not installed: the kustomization was read by this file only")

        by_kind = {d["kind"]: d for d in documents}
        container = by_kind["Deployment"]["spec"]["template"]["spec"]["containers"][0]
        probes = {container[p]["httpGet"]["path"] for p in ("readinessProbe", "livenessProbe")}
        check(probes == {"/__stubd/ready"}, f"both probes ask /__stubd/ready, open to probes ({probes})")
        check("--sessions-only" in container["args"], "the instances refuse admin writes without a session (--sessions-only)")
        annotation = by_kind["Ingress"]["metadata"]["annotations"].get("nginx.ingress.kubernetes.io/upstream-hash-by", "")
        # The nginx test runs packaging/nginx/stubd.conf, the copyable config.
        with open(os.path.join(HERE, "..", "..", "packaging", "nginx", "stubd.conf")) as file:
            tested = 'hash "stubd-${http_x_stubd_session}" consistent;' in file.read()
        check(annotation == "stubd-${http_x_stubd_session}" and tested, f"the Ingress hashes on the session as the nginx test does ({annotation})")

        broken = [dict(d) for d in documents]
        deployment = next(d for d in broken if d["kind"] == "Deployment")
        deployment["spec"] = dict(deployment["spec"], replica=3)
        code, output = validate(broken, scratch, "broken.yaml")
        check(code != 0 and "replica" in output, "a misspelt field (spec.replica) fails the same validation")

        # The ConfigMap volume's layout: timestamped folder, ..data link, each key a link through it.
        volume = os.path.join(scratch, "fixtures")
        stamp = os.path.join(volume, "..2026_11_27_00_00_00.000000000")
        os.makedirs(stamp)
        for key, text in by_kind["ConfigMap"]["data"].items():
            with open(os.path.join(stamp, key), "w") as file:
                file.write(text)
        os.symlink(os.path.basename(stamp), os.path.join(volume, "..data"))
        for key in by_kind["ConfigMap"]["data"]:
            os.symlink(os.path.join("..data", key), os.path.join(volume, key))
        done = subprocess.run([BINARY, "routes", volume], capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith("METHOD")]
        check(done.returncode == 0 and len(lines) == 2 and "/v1/me" in done.stdout,
              f"stubd reads the fixtures from a ConfigMap volume's layout once each ({len(lines)} routes)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print(f"manifests_test: {len(failures)} failed")
        sys.exit(1)
    print("manifests_test: all passed")


if __name__ == "__main__":
    main()

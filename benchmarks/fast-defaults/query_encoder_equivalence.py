import json, numpy as np
from chsr.config import Settings
from services.dense.encoder import Encoder
from services.dense.server import query_encoder
from services.inference.model_files import resolve_model_path
from tools.bench.scale_corpus import BaseCorpus
s=Settings(); mp=resolve_model_path(s.model_path); enc=Encoder(mp, None)
base=BaseCorpus.load([s.dataset_dir("curriculum")/"corpus.jsonl", s.dataset_dir("scifact")/"corpus.jsonl"], s.cache_dir/"embeddings.sqlite", enc.model_id)
sci=[json.loads(l)["text"] for l in open(s.dataset_dir("scifact")/"queries.jsonl")]
cur=[json.loads(l)["query"] for l in open(s.dataset_dir("curriculum")/"cases.dev.jsonl")]
out={}
for name, qs in (("scifact", sci), ("curriculum-dev", cur)):
    T=enc.encode_queries(qs)
    for variant in ("onnx-fp32","onnx-int8"):
        O=query_encoder(Settings(query_encoder=variant), enc)
        V=np.concatenate([O([q]) for q in qs])
        st, so = T@base.vectors.T, V@base.vectors.T
        k=10 if name=="scifact" else 8
        tt=np.argsort(-st,1)[:,:100]; oo=np.argsort(-so,1)[:,:100]
        same_topk=float(np.mean([list(a[:k])==list(b[:k]) for a,b in zip(tt,oo)]))
        same_100=float(np.mean([list(a)==list(b) for a,b in zip(tt,oo)]))
        out[f"{name}/{variant}"]={"queries":len(qs),"identical_top_k_order":round(same_topk,4),"identical_top100_order":round(same_100,4),"max_abs_vector_diff":float(np.max(np.abs(T-V))),"min_cosine":float(np.min(np.sum(T*V,1)))}
        print(name, variant, out[f"{name}/{variant}"])
json.dump(out, open("/tmp/q_eq.json","w"), indent=1)

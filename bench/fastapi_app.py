"""The benchmark's FastAPI yardstick: REST sum's request as a minimal FastAPI app would
serve it. A dependency checks the API key, FastAPI validates the query parameter, the
handler adds the numbers as floats. One uvicorn worker (uvloop and httptools when
installed), no access log.

Usage: python3 bench/fastapi_app.py   (HOST, PORT and API_KEYS from the environment)
"""
import os

import uvicorn
from fastapi import Depends, FastAPI, Header, HTTPException, Query

KEY = os.environ.get("API_KEYS", "bench-key")
app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)


async def api_key(x_api_key: str = Header(None)) -> str:
    if x_api_key != KEY:
        raise HTTPException(status_code=401, detail="Invalid API key")
    return x_api_key


@app.get("/v1/math/sum", dependencies=[Depends(api_key)])
async def math_sum(numbers: str = Query(..., max_length=100_000)) -> dict:
    items = numbers.split(",")
    try:
        total = sum(float(item) for item in items)
    except ValueError:
        raise HTTPException(status_code=422, detail="numbers must be decimal numbers")
    decimal = str(int(total)) if total.is_integer() else repr(total)
    return {"result": total, "decimal": decimal, "count": len(items)}


@app.get("/health")
async def health() -> dict:
    return {"status": "ok"}


if __name__ == "__main__":
    uvicorn.run(
        app,
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8000")),
        log_level="warning",
        access_log=False,
    )

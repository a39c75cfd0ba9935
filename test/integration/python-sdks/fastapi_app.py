"""A FastAPI API with the unmodified moesifasgi middleware, configured only through its documented settings.

Environment: COLLECTOR_URL (the service's collector), APPLICATION_ID (its collector application id), PORT.
"""
import os

import uvicorn
from fastapi import FastAPI, Request
from moesifasgi import MoesifMiddleware


async def identify_user(request, response):
    return request.headers.get('x-user-id')


async def identify_company(request, response):
    return request.headers.get('x-company-id')


moesif_settings = {
    'APPLICATION_ID': os.environ['APPLICATION_ID'],
    'BASE_URI': os.environ['COLLECTOR_URL'],
    'LOG_BODY': True,
    'IDENTIFY_USER': identify_user,
    'IDENTIFY_COMPANY': identify_company,
    'BATCH_SIZE': 10,
    'EVENT_BATCH_TIMEOUT': 1,
}

app = FastAPI()
app.add_middleware(MoesifMiddleware, settings=moesif_settings)
# Profiles go through a middleware instance of their own, as the SDK documents for update_user.
profiles = MoesifMiddleware(settings=moesif_settings)


@app.get('/items/{item_id}')
async def item(item_id: str):
    return {'id': item_id, 'framework': 'fastapi'}


@app.get('/blocked')
async def blocked():
    return {'reached': True}


@app.post('/profile')
async def profile(request: Request):
    body = await request.json()
    profiles.update_user({'user_id': body['user_id'], 'company_id': body['company_id'], 'metadata': {'email': body['email'], 'sdk': 'moesifasgi'}})
    profiles.update_company({'company_id': body['company_id'], 'company_domain': body['domain'], 'metadata': {'sdk': 'moesifasgi'}})
    return {'updated': True}


if __name__ == '__main__':
    uvicorn.run(app, host='127.0.0.1', port=int(os.environ['PORT']), log_level='warning')

"""A Flask API with the unmodified moesifwsgi middleware, configured only through its documented settings.

Environment: COLLECTOR_URL (the service's collector), APPLICATION_ID (its collector application id), PORT.
"""
import os

from flask import Flask, jsonify, request
from moesifwsgi import MoesifMiddleware

app = Flask(__name__)


def identify_user(app, environ, response_headers=dict()):
    return environ.get('HTTP_X_USER_ID')


def identify_company(app, environ, response_headers=dict()):
    return environ.get('HTTP_X_COMPANY_ID')


moesif_settings = {
    'APPLICATION_ID': os.environ['APPLICATION_ID'],
    'BASE_URI': os.environ['COLLECTOR_URL'],
    'LOG_BODY': True,
    'IDENTIFY_USER': identify_user,
    'IDENTIFY_COMPANY': identify_company,
    'BATCH_SIZE': 10,
    'EVENT_BATCH_TIMEOUT': 1,
}
middleware = MoesifMiddleware(app.wsgi_app, moesif_settings)
app.wsgi_app = middleware


@app.route('/items/<item_id>')
def item(item_id):
    return jsonify({'id': item_id, 'framework': 'flask'})


@app.route('/blocked')
def blocked():
    return jsonify({'reached': True})


@app.route('/profile', methods=['POST'])
def profile():
    body = request.get_json()
    middleware.update_user({'user_id': body['user_id'], 'company_id': body['company_id'], 'metadata': {'email': body['email'], 'sdk': 'moesifwsgi'}})
    middleware.update_company({'company_id': body['company_id'], 'company_domain': body['domain'], 'metadata': {'sdk': 'moesifwsgi'}})
    return jsonify({'updated': True})


if __name__ == '__main__':
    app.run(host='127.0.0.1', port=int(os.environ['PORT']))

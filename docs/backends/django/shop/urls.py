from django.urls import path

from orders import views

urlpatterns = [
    path("", views.product, name="product"),
    path("orders", views.place_order, name="place_order"),
    path("orders/<str:order_id>/checkout", views.checkout, name="checkout"),
    path("orders/<str:order_id>/", views.order, name="order"),
    path("assets/momo-checkout.js", views.element_script, name="element_script"),
    path("momo/events", views.momo_events, name="momo_events"),
]

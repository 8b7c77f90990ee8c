from django.contrib.auth import views as auth_views
from django.urls import path, register_converter
from django.views.generic import RedirectView

from accounts import views as account_links
from accounts.language import LoginView, language_set

from . import account_views, import_names_views, invitation_views, leave_views, server_time_views, views
from .converters import DateConverter

register_converter(DateConverter, "date")

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="my-games", permanent=False)),
    path("login/", LoginView.as_view(), name="login"),
    path("language/", language_set, name="set-language"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("games/", views.my_games, name="my-games"),
    path("leave/", leave_views.leave_page, name="leave"),
    path("account/", account_views.account_page, name="account"),
    path("account/settings/", account_views.settings_post, name="account-settings"),
    path("account/email/", account_views.email_change_post, name="account-email"),
    path("account/email/confirm/<str:token>/", account_links.email_change_confirm_page, name="email-change-confirm"),
    # Django's reset views under Django's names (they redirect to one another by them).
    path("password-reset/", account_links.PasswordResetView.as_view(), name="password_reset"),
    path("password-reset/sent/", account_links.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", account_links.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password-reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("signup/", account_links.sign_up, name="sign-up"),
    path("signup/confirm/<str:token>/", account_links.sign_up_confirm_page, name="sign-up-confirm"),
    path("invitations/<str:token>/", invitation_views.invitation_page, name="invitation"),
    path("account/xfcc-password/", account_views.xfcc_password_post, name="account-xfcc-password"),
    path("account/xfcc-password/revoke/", account_views.xfcc_password_revoke_post, name="account-xfcc-revoke"),
    path("leave/<int:leave_id>/cancel/", leave_views.leave_cancel_post, name="leave-cancel"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/move/", views.move_post, name="game-move"),
    path("games/<int:game_id>/conditional/", views.conditional_post, name="game-conditional"),
    path("games/<int:game_id>/conditional/cancel/", views.conditional_cancel_post, name="game-conditional-cancel"),
    path("games/<int:game_id>/variant/", views.variant_post, name="game-variant"),
    path("games/<int:game_id>/receipt/", views.receipt_post, name="game-receipt"),
    path("games/<int:game_id>/notice/", views.notice_post, name="game-notice"),
    path("games/<int:game_id>/penalty/", views.penalty_post, name="game-penalty"),
    path("games/<int:game_id>/delay/", views.delay_post, name="game-delay"),
    path("games/<int:game_id>/credit/", views.credit_post, name="game-credit"),
    path("games/<int:game_id>/gift/", views.gift_post, name="game-gift"),
    path("games/<int:game_id>/pause/", server_time_views.pause_post, name="game-pause"),
    path("games/<int:game_id>/vacation/", server_time_views.vacation_post, name="game-vacation"),
    path("games/<int:game_id>/calendar/", server_time_views.calendar_post, name="game-calendar"),
    path("games/<int:game_id>/start-notice/", views.start_notice_post, name="game-start-notice"),
    path("games/<int:game_id>/result/", views.result_post, name="game-result"),
    path("games/<int:game_id>/reopen/", views.reopen_post, name="game-reopen"),
    path("games/<int:game_id>/resign/", views.resign_post, name="game-resign"),
    path("games/<int:game_id>/draw-offer/", views.draw_offer_post, name="game-draw-offer"),
    path("games/<int:game_id>/long-move/", views.long_move_post, name="game-long-move"),
    path("games/<int:game_id>/draw-claim/", views.draw_claim_post, name="game-draw-claim"),
    path("games/<int:game_id>/draw-offer/accept/", views.draw_accept_post, name="game-draw-accept"),
    path("games/<int:game_id>/draw-offer/decline/", views.draw_decline_post, name="game-draw-decline"),
    path("games/<int:game_id>/correct/", views.correct_post, name="game-correct"),
    path("games/<int:game_id>/withdraw/", views.withdraw_post, name="game-withdraw"),
    path("games/<int:game_id>/file/", views.game_file_download, name="game-file"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/invitations/", invitation_views.invitation_post,
         name="tournament-invitation"),
    path("tournaments/<int:tournament_id>/import/", views.tournament_import_post, name="tournament-import"),
    path("tournaments/<int:tournament_id>/imports/<int:job_id>/names/", import_names_views.import_names,
         name="import-names"),
    path("tournaments/<int:tournament_id>/reports/<date:on>/", views.report_page, name="report"),
    path("tournaments/<int:tournament_id>/reports/<date:on>.csv", views.report_csv, name="report-csv"),
    path("overstep-cases/<int:case_id>/decide/", views.case_decide, name="case-decide"),
]
